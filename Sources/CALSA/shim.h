#ifndef NARRATOR_CALSA_SHIM_H
#define NARRATOR_CALSA_SHIM_H
// ALSA's error output (Debian's libasound2-dev). pcaudiolib falls back to ALSA when no PulseAudio
// server answers, and ALSA prints every failed attempt to stderr ("ALSA lib ... Unknown PCM
// default", eight lines each time) through a handler that Swift cannot write: it is variadic.
#include <stdarg.h>
#include <stddef.h>
#include <alsa/global.h>
#include <alsa/error.h>

// Ignores ALSA's messages; Narrator reports the audio output's state itself, once.
static void narrator_alsa_ignore(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

// Installs it for the whole process (ALSA has one handler); returns ALSA's result (0 on success).
static inline int narrator_alsa_silence(void) {
    return snd_lib_error_set_handler(narrator_alsa_ignore);
}
#endif
