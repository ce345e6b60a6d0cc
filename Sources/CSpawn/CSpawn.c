#define _GNU_SOURCE
#include "CSpawn.h"

int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cspawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}
