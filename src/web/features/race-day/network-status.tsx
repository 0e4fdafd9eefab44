/**
 * The browser's own idea of the network (spec: "Network status messages"), shown when it changes. Offline stays
 * on screen until the network is back; the all-clear goes away after a while so it does not become noise.
 */
import { useEffect, useState } from "react";

const ONLINE = "You are now connected to the network.";
const OFFLINE = "You are NOT connected to the network.";
const ALL_CLEAR_SHOWN_MS = 10_000;

export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the browser may have gone on- or offline between the render and the listeners: read it once they listen.
    setOnline(navigator.onLine);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}

export function NetworkStatus() {
  const online = useOnline();
  const [message, setMessage] = useState<string | null>(() => (navigator.onLine ? null : OFFLINE));
  const [seen, setSeen] = useState(online);

  if (online !== seen) {
    setSeen(online);
    setMessage(online ? ONLINE : OFFLINE);
  }

  useEffect(() => {
    if (message !== ONLINE) return;
    const timer = setTimeout(() => setMessage(null), ALL_CLEAR_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [message]);

  return (
    <p className={`network-status${message === OFFLINE ? " is-offline" : ""}`} role="status">
      {message}
    </p>
  );
}
