import NarratorKeyboard
import NarratorDBus

/// Everything that can happen to the bridge, as a value: what the shell turns each libatspi,
/// bus connection and socket callback into before ``ATSPIBridge/handle(_:at:)`` decides what it means.
public enum BridgeInput: Equatable, Sendable {
    /// The shell is subscribed to the desktop's events and connected to narratord: say hello and
    /// list the desktop's applications.
    case started
    case event(ATSPIEvent)
    /// A key pressed or released, from AT-SPI2's synchronous keystroke listener, with the wall
    /// clock's reading: the effects say whether Narrator takes it (``BridgeEffect/takeKey``).
    case keyEvent(KeyEvent, LocalTime)
    /// The X server's keyboard, read at start and again when its mapping changes: keys come
    /// as raw events from now on (``rawKey(_:down:serverTime:_:)``), and the keys Narrator takes are grabbed
    /// (``BridgeEffect/grabKeys(_:)``), so no other key waits for Narrator.
    case keyboard(KeyboardTable)
    /// A key went down or up (X's raw event, seen whoever gets the key, or the event of a key
    /// Narrator grabbed), with the X server's time (one key's two reports share it) and the wall
    /// clock's reading.
    case rawKey(UInt8, down: Bool, serverTime: UInt, LocalTime)
    /// XKB's locked modifiers changed (Lock 2, Num Lock 16).
    case lockedModifiers(UInt32)
    /// The keymap file, read at start (`~/.config/narrator/keymap`).
    case keymapRead(path: String, KeymapRead)
    /// The reply to a question the bridge asked (or why none came: `.timedOut` once the
    /// question's bound passed, `.gone` when the application left the bus).
    case answered(BridgeQuestion, Result<DBusValue, DBusFailure>)
    /// One line narratord sent (a reply or an owner event), without its newline.
    case daemonLine(String)
    /// narratord closed the connection (it stopped or restarted).
    case daemonClosed
    /// The outcome of ``BridgeEffect/connectToDaemon``.
    case daemonConnected
    case daemonUnreachable(String)
    case timerFired(BridgeTimer)
    /// The accessibility bus went away (its launcher stopped or crashed).
    case busClosed
    /// The outcome of ``BridgeEffect/lookForNewBus``: a new bus whose registry answers, or not yet.
    case newBus(found: Bool)
    /// An application answered, after the question's bound, with a reply too large to keep
    /// (``DBusIncoming/tooLarge``): a million children take longer than 2 s to cross the bus.
    case refusedLate(application: String, reason: String)
}
