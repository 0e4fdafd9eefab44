/**
 * Buttons, styled once (theme.css `.btn`): outlined and rounded by default (spec: "default buttons outlined and
 * rounded"), `primary` filled amber for the one main action of a screen, `text` for quiet actions.
 */
import type { ButtonHTMLAttributes, Ref } from "react";
import { Link, type LinkProps } from "react-router";

export type ButtonVariant = "outlined" | "primary" | "secondary" | "text";
export type ButtonSize = "small" | "medium" | "large";

interface StyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function buttonClass({ variant = "outlined", size = "medium" }: StyleProps, extra?: string): string {
  return ["btn", `btn-${variant}`, size === "medium" ? "" : `btn-${size}`, extra ?? ""].filter(Boolean).join(" ");
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, StyleProps {
  /** Shows a busy state and blocks clicks while an action runs. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant, size, loading = false, className, disabled, type, children, ...rest }: ButtonProps) {
  return (
    <button
      type={type ?? "button"}
      className={buttonClass({ variant, size }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <span className="btn-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps, StyleProps {}

/** A router link that looks like a button (navigation stays a link for screen readers and middle-clicks). */
export function ButtonLink({ variant, size, className, ...rest }: ButtonLinkProps) {
  return <Link className={buttonClass({ variant, size }, className)} {...rest} />;
}
