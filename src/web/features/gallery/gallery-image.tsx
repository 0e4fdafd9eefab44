/**
 * A gallery picture that never shows the browser's broken-image icon: when the photo cannot be loaded (a missing
 * object, no network) its box shows a Swedish text instead. The box keeps its size either way (the CSS gives it
 * an aspect ratio), so nothing shifts.
 */
import { useState, type ImgHTMLAttributes } from "react";

export const BROKEN_IMAGE_TEXT = "Bilden kunde inte visas";

export interface GalleryImageProps extends ImgHTMLAttributes<HTMLImageElement> {
  src: string;
  alt: string;
}

export function GalleryImage(props: GalleryImageProps) {
  // A new address gets a new chance (the carousel reuses one element for every photo).
  return <GalleryImageOnce key={props.src} {...props} />;
}

function GalleryImageOnce({ className, alt, ...rest }: GalleryImageProps) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <span className={["gallery-broken", className].filter(Boolean).join(" ")} data-alt={alt}>
        {BROKEN_IMAGE_TEXT}
      </span>
    );
  }
  return (
    <img
      {...rest}
      alt={alt}
      className={className}
      decoding="async"
      draggable={false}
      onError={() => setBroken(true)}
      // An error before React attached its handler (a cached failure) is caught here.
      ref={(img) => {
        if (img?.complete && img.currentSrc && img.naturalWidth === 0) setBroken(true);
      }}
    />
  );
}
