// Placeholder until the real pages arrive: opens /ws and prints every message.
"use strict";
const log = document.getElementById("log");
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
ws.onmessage = (e) => { log.textContent += e.data + "\n"; };
ws.onopen = () => { ws.send(JSON.stringify({id: 1, cmd: "status"})); };
