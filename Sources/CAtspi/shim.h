#ifndef NARRATOR_CATSPI_SHIM_H
#define NARRATOR_CATSPI_SHIM_H
// libatspi (AT-SPI2's client library), as installed by Debian's libatspi2.0-dev, the GLib
// calls needed to free what it returns and to run its main loop, and GIO's D-Bus client.
#include <atspi/atspi.h>
#include <glib.h>
#include <glib-object.h>
#include <glib-unix.h>
// GDBus: the session bus, asked once for the accessibility bus's address and told that a screen reader runs.
#include <gio/gio.h>

// The object path of an accessible (AtspiObject's `path`), without reaching into the struct
// from Swift: "/org/a11y/atspi/accessible/12".
static inline const char *narrator_atspi_path(AtspiAccessible *accessible) {
    return accessible->parent.path;
}

// The object an event carries (an active descendant), or NULL when it carries none.
static inline AtspiAccessible *narrator_atspi_event_object(AtspiEvent *event) {
    if (!G_VALUE_HOLDS_OBJECT(&event->any_data)) return NULL;
    GObject *object = g_value_get_object(&event->any_data);
    return object && ATSPI_IS_ACCESSIBLE(object) ? ATSPI_ACCESSIBLE(object) : NULL;
}

// The text an event carries (what a text change inserted or deleted), or NULL when it carries none.
static inline const char *narrator_atspi_event_text(AtspiEvent *event) {
    return G_VALUE_HOLDS_STRING(&event->any_data) ? g_value_get_string(&event->any_data) : NULL;
}

// The D-Bus name of the application an accessible belongs to (":1.42").
static inline const char *narrator_atspi_bus_name(AtspiAccessible *accessible) {
    return accessible->parent.app ? accessible->parent.app->bus_name : NULL;
}
#endif
