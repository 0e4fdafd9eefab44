/**
 * This device's id, sent as `device` with every race-day call so the audit trail tells two timing phones
 * apart. Made once and kept in localStorage; without storage it lasts as long as the page.
 */
import { isDeviceId } from "../../shared/race-protocol";

const KEY = "race-day:device";
let inMemory: string | undefined;

function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `dev-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function deviceId(): string {
  try {
    const stored = localStorage.getItem(KEY);
    if (isDeviceId(stored)) return stored;
    const made = newDeviceId();
    localStorage.setItem(KEY, made);
    return made;
  } catch {
    inMemory ??= newDeviceId();
    return inMemory;
  }
}
