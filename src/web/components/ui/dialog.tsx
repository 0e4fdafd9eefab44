/**
 * Radix Dialog, wrapped and styled once. `DialogContent` always has a title (screen readers announce it) and a
 * close button; `side` turns it into a drawer sliding in from the left or right edge.
 *
 * Radix's code comes with the screen (vite.config.ts's `ui` chunk), not on a dialog's first open. That was tried (the
 * slowed race screen's tiles came about 65 ms sooner: bench/race-screen-load.mjs), but a dynamic import that failed
 * for lack of signal failed again after the signal was back (Chromium keeps a failed module for the page's life), so
 * a phone that lost its signal before the code came could not open a dialog until a reload.
 */
import * as RadixDialog from "@radix-ui/react-dialog";
import { useState, type ComponentProps, type ReactNode } from "react";
import { CloseIcon } from "./icons";

/**
 * Radix's Dialog.Root, mounted once the dialog is first opened (every dialog here is controlled by `open`). A closed
 * Radix dialog draws nothing, but its parts still mount through Radix's Presence, whose layout effect sets state:
 * a synchronous second render, and React then runs all of the screen's effects before the browser may paint. A
 * screen with several dialogs (the race screen has seven) opened without that. Once opened it stays mounted, so
 * closing it keeps Radix's behaviour (focus returned, the closing animation).
 */
export function Dialog({ open, ...rest }: ComponentProps<typeof RadixDialog.Root>) {
  const [opened, setOpened] = useState(open === true);
  if (open === true && !opened) setOpened(true);
  return opened ? <RadixDialog.Root open={open} {...rest} /> : null;
}

export interface DialogContentProps {
  title: ReactNode;
  /** Shown under the title; also the dialog's accessible description. */
  description?: ReactNode;
  /** Hide the title visually (it is still announced). */
  hideTitle?: boolean;
  side?: "center" | "left" | "right";
  /** Text of the close button. */
  closeLabel?: string;
  className?: string;
  children?: ReactNode;
}

export function DialogContent({
  title,
  description,
  hideTitle = false,
  side = "center",
  closeLabel = "Stäng",
  className,
  children,
}: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="dialog-overlay" />
      <RadixDialog.Content
        className={["dialog", `dialog-${side}`, className ?? ""].filter(Boolean).join(" ")}
        // Without a description Radix warns unless aria-describedby is explicitly cleared.
        {...(description === undefined ? { "aria-describedby": undefined } : {})}
      >
        <div className="dialog-header">
          <RadixDialog.Title className={hideTitle ? "visually-hidden" : "dialog-title"}>{title}</RadixDialog.Title>
          <RadixDialog.Close className="dialog-close" aria-label={closeLabel}>
            <CloseIcon />
          </RadixDialog.Close>
        </div>
        {description !== undefined && (
          <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
        )}
        <div className="dialog-body">{children}</div>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}
