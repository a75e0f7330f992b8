#ifndef NARRATOR_CSYSTEM_SHIM_H
#define NARRATOR_CSYSTEM_SHIM_H
// Linux calls that Swift's Glibc module hides because it is built without _GNU_SOURCE
// (accept4, eventfd, gettid, setfsuid, struct ucred). Including glibc's headers here with
// _GNU_SOURCE would define types such as fd_set a second time, differently, and clash with the
// Glibc module; so this header includes nothing and declares the calls itself with plain C
// types, under names of our own bound to the real symbols with asm labels.

/// struct ucred as SO_PEERCRED fills it (pid_t, uid_t, gid_t are 32-bit on every Linux ABI).
struct narrator_ucred {
    int pid;
    unsigned int uid;
    unsigned int gid;
};

/// accept4(2); the address arguments are passed as NULL (peers are identified by SO_PEERCRED).
int narrator_accept4(int fd, void *address, void *address_length, int flags) __asm__("accept4");

/// eventfd(2); the kernel defines EFD_CLOEXEC and EFD_NONBLOCK as O_CLOEXEC and O_NONBLOCK.
int narrator_eventfd(unsigned int initial_value, int flags) __asm__("eventfd");

/// gettid(2): identifies the loop thread.
int narrator_gettid(void) __asm__("gettid");

/// setfsuid(2): per-thread file-system uid; lets tests provoke permission errors as root.
int narrator_setfsuid(unsigned int fsuid) __asm__("setfsuid");

/// pipe2(2): both ends made close-on-exec at once, so that no child spawned meanwhile by another
/// thread inherits them (an engine's pipes must reach only the engine).
int narrator_pipe2(int fds[2], int flags) __asm__("pipe2");

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
/// `from` up, so that it cannot hold pipes or sockets the parent's other threads opened without
/// O_CLOEXEC. `actions` is a posix_spawn_file_actions_t *.
int narrator_spawn_addclosefrom(void *actions, int from) __asm__("posix_spawn_file_actions_addclosefrom_np");

/// malloc_trim(3): returns freed heap pages to the system (after a large tree is parsed).
int narrator_malloc_trim(unsigned long pad) __asm__("malloc_trim");

/// prctl(2), declared as glibc declares it.
int prctl(int option, ...);

/// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants are re-parented to this process instead
/// of init, so that it can reap them. PR_SET_CHILD_SUBREAPER is 36 in <linux/prctl.h>.
static inline int narrator_set_child_subreaper(void) {
    return prctl(36, 1UL, 0UL, 0UL, 0UL);
}

/// The process's environment, as execve(2) passed it and setenv(3) changed it (a function, since
/// Swift 6 refuses to read a mutable C global).
extern char **narrator_environ __asm__("environ");
static inline char **narrator_environment(void) {
    return narrator_environ;
}

/// prctl(PR_SET_NAME, name): names the calling thread (what /proc/PID/task/TID/comm and top show;
/// the kernel keeps 15 bytes). PR_SET_NAME is 15 in <linux/prctl.h>.
static inline int narrator_set_thread_name(const char *name) {
    return prctl(15, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
