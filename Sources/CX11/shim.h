// Xlib's keyboard extension: the Caps Lock state narrator-atspi puts back after Caps Lock was
// used as Narrator's key (the X server toggles it on every press, taken or not).
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
