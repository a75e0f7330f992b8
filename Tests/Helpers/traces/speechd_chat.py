#!/usr/bin/python3
"""A chat client on python3-speechd, as a real program floods a speech server: a burst of lines at
150 ms, a repeat, a cancel, a character and a key. Usage: speechd_chat.py SOCKET NAME"""
import sys
import time

import speechd

socket, name = sys.argv[1], sys.argv[2]
client = speechd.SSIPClient(name, address="unix_socket:" + socket, autospawn=False)
client.set_priority(speechd.Priority.TEXT)
for i in range(8):
    client.speak("chat line %d arrives now" % i)
    time.sleep(0.15)
client.speak("chat line 3 arrives now")
time.sleep(1.0)
client.cancel()
client.char("x")
client.key("a")
time.sleep(1.5)
client.close()
