#ifndef NARRATOR_CPCAUDIO_SHIM_H
#define NARRATOR_CPCAUDIO_SHIM_H
// pcaudiolib (Debian's libpcaudio-dev): the audio layer eSpeak NG itself uses.
// It reaches PulseAudio, PipeWire's pulse server and ALSA.
#include <stddef.h>
#include <pcaudiolib/audio.h>
#endif
