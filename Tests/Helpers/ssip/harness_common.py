"""Shared plumbing for the SSIP client harness (run with /usr/bin/python3: Debian's modules).

Every child runs in its own process group (start_new_session) and is killed as a group, with
SIGKILL after a short grace, so nothing outlives the harness. Everything a run creates lives in
one temporary directory that Scope.close() removes. No mocks: a private PulseAudio server with a
null sink and, for the reference runs, Debian's real speech-dispatcher.
"""

import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

SINK = "narrator_test"
RATE = 22050
SPEECHD = "/usr/bin/speech-dispatcher"
SPEECHD_MODULES = "/usr/lib/speech-dispatcher-modules"
ESPEAK_MODULE_CONF = "/etc/speech-dispatcher/modules/espeak-ng.conf"


def now():
    return time.monotonic()


def emit(obj, stream=None):
    """One JSON object per line, flushed at once (the Swift tests read lines as they come)."""
    stream = stream or sys.stdout
    stream.write(json.dumps(obj, sort_keys=True) + "\n")
    stream.flush()


def log(msg):
    sys.stderr.write("[%s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def parse_address(address):
    """SPEECHD_ADDRESS syntax (unix_socket:PATH or a bare path) -> socket path."""
    if address.startswith("unix_socket:"):
        return address[len("unix_socket:"):]
    if address.startswith("/"):
        return address
    raise ValueError("only unix_socket addresses are supported here: %r" % address)


def wait_for_socket(path, timeout, proc=None):
    """Polls until something accepts on the Unix socket `path`; False on timeout or if `proc` died."""
    deadline = now() + timeout
    while now() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(1)
            s.connect(path)
            return True
        except OSError:
            time.sleep(0.05)
        finally:
            s.close()
    return False


class Scope:
    """A temporary directory and the process groups started in it; close() undoes everything."""

    def __init__(self, prefix="ssip-harness-", keep=False):
        self.dir = tempfile.mkdtemp(prefix=prefix)
        self.keep = keep
        self.procs = []  # (name, Popen)
        self.closers = []

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def spawn(self, name, argv, env=None, stdout=None, stderr=None, stdin=subprocess.DEVNULL):
        """Starts argv in a new session (its own process group); output to files in the scope."""
        out = open(self.path(name + ".out"), "wb") if stdout is None else stdout
        err = open(self.path(name + ".err"), "wb") if stderr is None else stderr
        proc = subprocess.Popen(argv, env=env, stdin=stdin, stdout=out, stderr=err,
                                start_new_session=True, close_fds=True)
        self.procs.append((name, proc))
        return proc

    def kill(self, proc, grace=1.0):
        """SIGTERM to the group, then SIGKILL to the group after `grace`; reaps the leader."""
        try:
            pgid = os.getpgid(proc.pid)
        except ProcessLookupError:
            pgid = None
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 2.0)):
            if pgid is not None:
                try:
                    os.killpg(pgid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                proc.wait(timeout=wait)
                if sig == signal.SIGTERM and pgid is not None:
                    # The leader is gone; make sure the rest of the group is too.
                    try:
                        os.killpg(pgid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                return
            except subprocess.TimeoutExpired:
                continue

    def close(self):
        for fn in reversed(self.closers):
            try:
                fn()
            except Exception as e:  # cleanup must go on
                log("cleanup: %r" % e)
        for name, proc in reversed(self.procs):
            self.kill(proc, grace=0.5)
        self.procs = []
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def install_signal_cleanup(scope):
    """SIGTERM/SIGINT/SIGHUP end the run through the normal cleanup path."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, handler)


# ---------------------------------------------------------------- PulseAudio


class PrivatePulse:
    """A private PulseAudio server with a null sink (as Sources/NarratorPulseHarness does)."""

    def __init__(self, scope, server=None, sink=SINK):
        self.scope = scope
        self.sink = sink
        self.dir = scope.path("pulse")
        os.makedirs(self.dir, exist_ok=True)
        self.socket = os.path.join(self.dir, "native")
        self.client_conf = os.path.join(self.dir, "client.conf")
        with open(self.client_conf, "w") as f:
            f.write("autospawn = no\n")
        self.external = server  # "unix:/path" of a server someone else runs (e.g. the Swift test's)
        if server:
            self.socket = server[len("unix:"):] if server.startswith("unix:") else server

    @property
    def server(self):
        return "unix:" + self.socket

    def env(self, base=None):
        env = dict(os.environ if base is None else base)
        env.update(PULSE_SERVER=self.server, PULSE_CLIENTCONFIG=self.client_conf)
        return env

    def start(self, timeout=20):
        if self.external:
            return self
        env = self.env()
        env.update(HOME=self.dir, XDG_RUNTIME_DIR=self.dir, PULSE_RUNTIME_PATH=self.dir,
                   PULSE_STATE_PATH=self.dir, XDG_CONFIG_HOME=os.path.join(self.dir, ".config"))
        self.proc = self.scope.spawn("pulseaudio", [
            "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
            "--system=no", "--use-pid-file=no", "--log-target=stderr", "--log-level=notice",
            "-L", "module-native-protocol-unix socket=%s auth-anonymous=1" % self.socket,
            "-L", "module-null-sink sink_name=%s rate=%d channels=1" % (self.sink, RATE),
            "-L", "module-always-sink"], env=env)
        deadline = now() + timeout
        while now() < deadline:
            if self.proc.poll() is not None:
                break
            r = subprocess.run(["/usr/bin/pactl", "info"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10)
            if r.returncode == 0:
                # Keeps the sink at low latency, as a hardware sink would be.
                self.scope.spawn("pacat-keepalive", [
                    "/usr/bin/pacat", "--playback", "--raw", "--format=s16le", "--rate=%d" % RATE,
                    "--channels=1", "--latency-msec=20", "/dev/zero"], env=env)
                return self
            time.sleep(0.05)
        raise RuntimeError("private PulseAudio did not start; log: %s" % tail(self.scope.path("pulseaudio.err")))

    def record(self, path):
        """parec of the sink's monitor into a raw s16le mono file."""
        return self.scope.spawn("parec", [
            "/usr/bin/parec", "--device=%s.monitor" % self.sink, "--raw", "--format=s16le",
            "--rate=%d" % RATE, "--channels=1", "--latency-msec=20", "--file-format=raw", path],
            env=self.env())


def recording_summary(path, rate=RATE):
    """Length, peak and the seconds of 50 ms windows louder than a whisper (RMS > 300)."""
    try:
        data = open(path, "rb").read()
    except OSError:
        data = b""
    n = len(data) // 2
    samples = struct.unpack("<%dh" % n, data[: n * 2]) if n else ()
    peak = max((abs(s) for s in samples), default=0)
    window = rate // 20
    loud = 0
    for i in range(0, max(0, n - window), window):
        chunk = samples[i:i + window]
        if (sum(s * s for s in chunk) / len(chunk)) ** 0.5 > 300:
            loud += 1
    return {"seconds": round(n / rate, 3), "peak": peak, "speech_seconds": round(loud * 0.05, 2)}


def tail(path, n=2000):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")[-n:]
    except OSError:
        return ""


# ---------------------------------------------------------------- speech-dispatcher


class PrivateSpeechd:
    """Debian's real speech-dispatcher in the foreground (--run-single), own config and socket,
    eSpeak NG module, playing into `pulse`. Autospawn off, nothing read from ~/.config."""

    def __init__(self, scope, pulse):
        self.scope = scope
        self.pulse = pulse
        self.dir = scope.path("speechd")
        self.socket = os.path.join(self.dir, "speechd.sock")

    @staticmethod
    def missing():
        if not os.access(SPEECHD, os.X_OK):
            return "speech-dispatcher is not installed (apt-get install speech-dispatcher)"
        if not os.access(os.path.join(SPEECHD_MODULES, "sd_espeak-ng"), os.X_OK):
            return "its eSpeak NG module is not installed (apt-get install speech-dispatcher-espeak-ng)"
        return None

    def start(self, timeout=20):
        config = os.path.join(self.dir, "config")
        os.makedirs(os.path.join(config, "modules"), exist_ok=True)
        os.makedirs(os.path.join(self.dir, "runtime"), exist_ok=True)
        try:
            shutil.copy(ESPEAK_MODULE_CONF, os.path.join(config, "modules", "espeak-ng.conf"))
        except OSError:
            open(os.path.join(config, "modules", "espeak-ng.conf"), "w").close()
        # Its Flite module too when installed (speech-dispatcher-flite), for the module tests to
        # compare against; eSpeak NG stays the default.
        flite = ""
        if os.access(os.path.join(SPEECHD_MODULES, "sd_flite"), os.X_OK):
            open(os.path.join(config, "modules", "flite.conf"), "w").close()
            flite = 'AddModule "flite" "sd_flite" "flite.conf"\n'
        with open(os.path.join(config, "speechd.conf"), "w") as f:
            f.write('CommunicationMethod "unix_socket"\nSocketPath "%s"\nTimeout 0\nLogLevel 3\n'
                    'LogDir "%s"\nAudioOutputMethod "pulse"\n'
                    'AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\n%sDefaultModule espeak-ng\n'
                    'DisableAutoSpawn\n' % (self.socket, self.dir, flite))
        env = self.pulse.env()
        env.update(XDG_RUNTIME_DIR=os.path.join(self.dir, "runtime"),
                   XDG_CONFIG_HOME=os.path.join(self.dir, "xdg-config"), HOME=self.dir)
        self.proc = self.scope.spawn("speech-dispatcher", [
            SPEECHD, "--run-single", "--config-dir", config, "--module-dir", SPEECHD_MODULES,
            "--communication-method", "unix_socket", "--socket-path", self.socket,
            "--timeout", "0", "--log-dir", self.dir], env=env)
        if not wait_for_socket(self.socket, timeout, self.proc):
            raise RuntimeError("speech-dispatcher did not open %s; stderr: %s" % (
                self.socket, tail(self.scope.path("speech-dispatcher.err"))))
        return self
