#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.

/// Adds an action that closes every descriptor from `lowest` up in the child.
int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Adds an action that makes `path` the child's working directory.
int cspawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
