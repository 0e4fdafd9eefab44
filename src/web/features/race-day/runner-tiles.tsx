/**
 * The grid of runner tiles: one big target per runner (first name, bib or '?', last name), in the spec's order.
 * A tap is the tile's action (a bib before the start, a finish after). The runner's other actions sit behind a
 * right-click or a long press, and behind a small '⋯' button for those who can do neither (keyboard, screen reader).
 */
import { useRef, type PointerEvent } from "react";
import { bibText, fullName, tileGroup, type RunnerView } from "./race-view";

/** Long enough that a hurried finish tap never opens the menu. */
const LONG_PRESS_MS = 600;
/** A finger that slides this far is scrolling, not pressing. */
const PRESS_SLOP_PX = 12;

const GROUP_TEXT = { waiting: "", dns: "ej start", finished: "i mål" } as const;

export interface RunnerTilesProps {
  runners: readonly RunnerView[];
  onTap: (runner: RunnerView) => void;
  onMenu: (runner: RunnerView) => void;
}

export function RunnerTiles({ runners, onTap, onMenu }: RunnerTilesProps) {
  if (runners.length === 0) return <p className="muted">Inga deltagare i loppet.</p>;
  return (
    <ul className="runner-tiles" aria-label="Deltagare">
      {runners.map((r) => (
        <RunnerTile key={r.sort} runner={r} onTap={onTap} onMenu={onMenu} />
      ))}
    </ul>
  );
}

function RunnerTile({ runner, onTap, onMenu }: { runner: RunnerView } & Omit<RunnerTilesProps, "runners">) {
  const press = useRef<{ timer?: ReturnType<typeof setTimeout>; x: number; y: number; menuAt: number }>({
    x: 0,
    y: 0,
    menuAt: -Infinity,
  });
  const group = tileGroup(runner);

  const cancelPress = () => clearTimeout(press.current.timer);
  const openMenu = () => {
    press.current.menuAt = performance.now();
    onMenu(runner);
  };
  /** The release of a long press (and Android's contextmenu after our own timer) belongs to the menu. */
  const menuJustShown = () => performance.now() - press.current.menuAt < LONG_PRESS_MS;

  function pointerDown(e: PointerEvent) {
    if (e.pointerType === "mouse") return;
    press.current.x = e.clientX;
    press.current.y = e.clientY;
    cancelPress();
    press.current.timer = setTimeout(openMenu, LONG_PRESS_MS);
  }

  function pointerMove(e: PointerEvent) {
    if (Math.hypot(e.clientX - press.current.x, e.clientY - press.current.y) > PRESS_SLOP_PX) cancelPress();
  }

  return (
    <li
      className={`tile-cell tile-${group}${runner.pending ? " tile-pending" : ""}${
        group === "waiting" && runner.pickedUpAt === undefined ? " tile-not-picked" : ""
      }`}
    >
      <button
        type="button"
        className="tile"
        onPointerDown={pointerDown}
        onPointerMove={pointerMove}
        onPointerUp={cancelPress}
        onPointerCancel={cancelPress}
        onPointerLeave={cancelPress}
        onContextMenu={(e) => {
          e.preventDefault();
          cancelPress();
          if (!menuJustShown()) openMenu();
        }}
        onClick={() => {
          if (!menuJustShown()) onTap(runner);
        }}
      >
        <span className="tile-first">{runner.firstname}</span>
        <span className="tile-bib">{bibText(runner.bib)}</span>
        <span className="tile-last">{runner.lastname}</span>
        {group !== "waiting" && <span className="tile-note">{GROUP_TEXT[group]}</span>}
        {/* Not been to the bib desk yet (admins only: the public start list never carries pickedUpAt). */}
        {group === "waiting" && runner.pickedUpAt === undefined && (
          <span className="tile-note tile-note-pickup">ej hämtad</span>
        )}
      </button>
      <button
        type="button"
        className="tile-more"
        aria-label={`Fler val för ${fullName(runner)}`}
        aria-haspopup="dialog"
        onClick={() => onMenu(runner)}
      >
        ⋯
      </button>
    </li>
  );
}
