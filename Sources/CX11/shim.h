// Xlib, its keyboard extension and XInput 2, for narrator-atspi's keyboard: the Caps Lock state
// put back after Caps Lock was used as Narrator's key (the X server toggles it on every press,
// taken or not), every key seen as it happens (raw events, which take nothing from anyone), and
// the keys Narrator takes grabbed so that only they are kept from the application. XInput 2's
// event masks are macros, which Swift cannot call: these small functions set them.
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <string.h>

/// Asks for every key press and release of the master keyboards as raw events on the root window.
static inline int narrator_xi_select_raw_keys(Display *display, Window root) {
    unsigned char bits[XIMaskLen(XI_LASTEVENT)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_RawKeyPress);
    XISetMask(bits, XI_RawKeyRelease);
    XIEventMask mask = { XIAllMasterDevices, sizeof bits, bits };
    return XISelectEvents(display, root, &mask, 1);
}

/// A passive grab of `keycode` on the master keyboard, on `window`, under each of `count` modifier states
/// (`states[i]`, or XIAnyModifier): while it is held, its keys come to this client only.
/// Returns how many of the states could not be grabbed (another client holds them).
static inline int narrator_xi_grab_keycode(Display *display, int keyboard, Window window, int keycode, const int *states, int count) {
    unsigned char bits[XIMaskLen(XI_LASTEVENT)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_KeyPress);
    XISetMask(bits, XI_KeyRelease);
    XIEventMask mask = { keyboard, sizeof bits, bits };
    XIGrabModifiers modifiers[64];
    if (count > 64) count = 64;
    for (int i = 0; i < count; i++) { modifiers[i].modifiers = states[i]; modifiers[i].status = 0; }
    int failed = XIGrabKeycode(display, keyboard, keycode, window, XIGrabModeAsync, XIGrabModeAsync, False, &mask, count, modifiers);
    return failed < 0 ? count : failed;
}

/// Ends the passive grabs of `keycode` under those modifier states.
static inline void narrator_xi_ungrab_keycode(Display *display, int keyboard, Window window, int keycode, const int *states, int count) {
    XIGrabModifiers modifiers[64];
    if (count > 64) count = 64;
    for (int i = 0; i < count; i++) { modifiers[i].modifiers = states[i]; modifiers[i].status = 0; }
    XIUngrabKeycode(display, keyboard, keycode, window, count, modifiers);
}

/// An active grab of the whole keyboard (learn mode: every key is described, none acted on).
static inline int narrator_xi_grab_keyboard(Display *display, int keyboard, Window window) {
    unsigned char bits[XIMaskLen(XI_LASTEVENT)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_KeyPress);
    XISetMask(bits, XI_KeyRelease);
    XIEventMask mask = { keyboard, sizeof bits, bits };
    return XIGrabDevice(display, keyboard, window, CurrentTime, None, XIGrabModeAsync, XIGrabModeAsync, False, &mask);
}

/// The master keyboard's device id (the client pointer's paired keyboard), or -1.
static inline int narrator_xi_master_keyboard(Display *display) {
    int pointer = 0;
    if (!XIGetClientPointer(display, None, &pointer)) return -1;
    int count = 0;
    XIDeviceInfo *info = XIQueryDevice(display, pointer, &count);
    if (!info || count < 1) return -1;
    int keyboard = info[0].attachment;
    XIFreeDeviceInfo(info);
    return keyboard;
}

/// What one event from the connection was, for the keyboard: a key (kind 1 press, 2 release;
/// `repeat` set for the X server's autorepeat; `time` the server's, which the same key's raw
/// event and grabbed event share), a change of the locked modifiers (kind 3), a change of the
/// keyboard's mapping (kind 4), the X focus moved (kind 5), or nothing of interest (0). A key comes as a raw event, except
/// while one of Narrator's grabs is active, when the X server gives the grabbing client its keys
/// as device events and no raw events; the press that starts a grab comes both ways.
static inline int narrator_x_key_event(Display *display, XEvent *event, int opcode, int xkb, int *keycode, int *repeat, unsigned long *time, unsigned *locked) {
    if (event->type == GenericEvent && event->xcookie.extension == opcode && XGetEventData(display, &event->xcookie)) {
        int kind = 0;
        int type = event->xcookie.evtype;
        if (type == XI_RawKeyPress || type == XI_RawKeyRelease) {
            XIRawEvent *raw = event->xcookie.data;
            // Only a master's copy: each slave's key comes to its master too.
            if (raw->deviceid == raw->sourceid) { XFreeEventData(display, &event->xcookie); return 0; }
            *keycode = raw->detail;
            *repeat = (raw->flags & XIKeyRepeat) != 0;
            *time = raw->time;
            kind = type == XI_RawKeyPress ? 1 : 2;
        } else if (type == XI_KeyPress || type == XI_KeyRelease) {
            XIDeviceEvent *key = event->xcookie.data;
            *keycode = key->detail;
            *repeat = (key->flags & XIKeyRepeat) != 0;
            *time = key->time;
            kind = type == XI_KeyPress ? 1 : 2;
        }
        XFreeEventData(display, &event->xcookie);
        return kind;
    }
    if (event->type == xkb) {
        XkbEvent *any = (XkbEvent *)event;
        if (any->any.xkb_type == XkbStateNotify) { *locked = any->state.locked_mods; return 3; }
        if (any->any.xkb_type == XkbMapNotify) { XkbRefreshKeyboardMapping(&any->map); return 4; }
        if (any->any.xkb_type == XkbNewKeyboardNotify) return 4;
    }
    if (event->type == FocusIn || event->type == FocusOut) return 5;
    if (event->type == MappingNotify) {
        XRefreshKeyboardMapping(&event->xmapping);
        return 4;
    }
    return 0;
}

/// Whether the server has XInput 2.2 (raw events reach the root window whoever grabs the keys);
/// sets its major opcode.
static inline int narrator_xi_available(Display *display, int *opcode) {
    int event = 0, error = 0;
    if (!XQueryExtension(display, "XInputExtension", opcode, &event, &error)) return 0;
    int major = 2, minor = 2;
    return XIQueryVersion(display, &major, &minor) == Success && (major > 2 || minor >= 2);
}

/// Asks XKB to report changes of the locked modifiers and of the keyboard's mapping; sets XKB's
/// event number and the locked modifiers now. Returns 0 without XKB.
static inline int narrator_xkb_watch(Display *display, int *event_base, unsigned *locked) {
    int opcode = 0, error = 0, major = XkbMajorVersion, minor = XkbMinorVersion;
    if (!XkbQueryExtension(display, &opcode, event_base, &error, &major, &minor)) return 0;
    XkbSelectEventDetails(display, XkbUseCoreKbd, XkbStateNotify, XkbModifierLockMask, XkbModifierLockMask);
    unsigned long maps = XkbMapNotifyMask | XkbNewKeyboardNotifyMask;
    XkbSelectEvents(display, XkbUseCoreKbd, maps, maps);
    XkbStateRec state;
    if (XkbGetState(display, XkbUseCoreKbd, &state) == Success) *locked = state.locked_mods;
    return 1;
}

/// The keysym `keycode` gives in modifier state `state`, as XKB translates it for an application.
static inline unsigned long narrator_x_keysym(Display *display, int keycode, unsigned state) {
    KeySym keysym = NoSymbol;
    unsigned consumed = 0;
    if (!XkbLookupKeySym(display, (KeyCode)keycode, state, &consumed, &keysym)) return NoSymbol;
    return keysym;
}

/// The window with the X focus, or the root window when the focus follows the pointer or is
/// nowhere. Narrator grabs its keys on it: a grab on the window that has the focus activates
/// without moving the focus, where one on the root window tells the application it lost the
/// focus (GTK then says its window was deactivated) at every key Narrator takes.
static inline Window narrator_x_focus(Display *display, Window root) {
    Window focus = None;
    int revert = 0;
    XGetInputFocus(display, &focus, &revert);
    return (focus == None || focus == PointerRoot) ? root : focus;
}

/// Asks to hear when the X focus moves from one top-level window to another.
static inline void narrator_x_watch_focus(Display *display, Window root) {
    XSelectInput(display, root, FocusChangeMask);
}

static int narrator_x_error_count = 0;

static inline int narrator_x_ignore_error(Display *display, XErrorEvent *error) {
    (void)display; (void)error;
    narrator_x_error_count++;
    return 0;
}

/// Xlib's default error handler ends the process; a grab on a window that closed meanwhile is an
/// error Narrator outlives (the focus moves on, and the grabs with it). Counted, not fatal.
static inline void narrator_x_survive_errors(void) { XSetErrorHandler(narrator_x_ignore_error); }
