/**
 * Tabs that each open a screen of their own (the admin shell's strip): the ARIA tabs pattern with manual activation,
 * styled as ui/tabs.tsx's (`.tabs-list`, `.tabs-trigger[data-state="active"]`). Only the open screen's tab is in the
 * Tab order; the arrow keys (and Home and End) move the focus along the strip, Enter or Space opens the focused tab's
 * screen (`onOpen`), and the panel is the caller's (`panelId`, labelled by the open tab's id, `tabId(path)`).
 *
 * Not Radix's Tabs: its roving focus counts its tabs from a layout effect that sets state, a synchronous second
 * render while the screen is being committed, and React then runs every effect of the newly opened screen (its
 * queries, its socket, its copies) before the browser may paint it: about 55 ms of a slowed phone's main thread in
 * a trace of the race screen's first load, whose tiles came 2,033 → 1,857 ms after the navigation without it
 * (bench/race-screen-load.mjs, RACE_LOAD_TRACE_FIRST; medians of 3 and 5).
 */
import type { KeyboardEvent, Ref } from "react";

export interface NavTab {
  path: string;
  label: string;
}

export interface NavTabsProps {
  tabs: readonly NavTab[];
  /** The open screen's tab, if it has one. */
  activePath: string | undefined;
  onOpen: (path: string) => void;
  label: string;
  className?: string;
  /** The id of each tab (the panel names the open one). */
  tabId: (path: string) => string;
  /** The id of the panel the open tab controls. */
  panelId: string;
  ref?: Ref<HTMLDivElement>;
}

/** Where the focus goes from tab `index` of `count` on `key`, or null for a key the strip leaves alone. */
function nextTabIndex(key: string, index: number, count: number): number | null {
  if (key === "ArrowRight") return (index + 1) % count;
  if (key === "ArrowLeft") return (index - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

export function NavTabs({ tabs, activePath, onOpen, label, className, tabId, panelId, ref }: NavTabsProps) {
  // With no tab open (a screen that has none), the first tab takes the Tab stop.
  const stop = tabs.some((t) => t.path === activePath) ? activePath : tabs[0]?.path;

  function keyDown(e: KeyboardEvent<HTMLDivElement>) {
    const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const next = nextTabIndex(e.key, index, buttons.length);
    if (next === null) return;
    e.preventDefault();
    buttons[next]?.focus();
  }

  return (
    <div
      ref={ref}
      role="tablist"
      aria-label={label}
      aria-orientation="horizontal"
      data-orientation="horizontal"
      className={["tabs-list", className ?? ""].filter(Boolean).join(" ")}
      onKeyDown={keyDown}
    >
      {tabs.map((t) => {
        const active = t.path === activePath;
        return (
          <button
            key={t.path}
            type="button"
            role="tab"
            id={tabId(t.path)}
            aria-selected={active}
            aria-controls={active ? panelId : undefined}
            data-state={active ? "active" : "inactive"}
            data-orientation="horizontal"
            tabIndex={t.path === stop ? 0 : -1}
            className="tabs-trigger"
            onClick={() => {
              if (!active) onOpen(t.path);
            }}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
