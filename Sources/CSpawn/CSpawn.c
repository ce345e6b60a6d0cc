#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>

int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
#ifdef __APPLE__
  // macOS has no close-from action (its POSIX_SPAWN_CLOEXEC_DEFAULT is an attribute flag);
  // said as unsupported rather than leaking every descriptor into the child.
  (void)actions;
  (void)lowest;
  return ENOSYS;
#else
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#endif
}

int cspawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}
