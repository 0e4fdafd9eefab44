/**
 * The Radix side of ui/dialog.tsx, loaded when a screen first draws a dialog (dialog.tsx says why and when): Radix's
 * Dialog.Root, and the content with its title and close button, styled once.
 */
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { CloseIcon } from "./icons";

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

export const Root = RadixDialog.Root;

export function Content({
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
