#ifndef NARRATOR_CESPEAK_SHIM_H
#define NARRATOR_CESPEAK_SHIM_H
// eSpeak NG's public API, as installed by Debian's libespeak-ng-dev.
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
#endif
