/**
 * The fullscreen carousel of one year's photos, a lazy chunk of its own (only /galleri/{year} loads it, and only
 * when a visitor heads for a thumbnail). A Radix Dialog (components/ui/dialog): the focus stays inside while it is
 * open and Escape or Stäng closes it.
 *
 * - Photos 300–2560 px: `srcset` over the carousel widths the photo has, `sizes="100vw"`.
 * - Keyboard: ← and → step (wrapping at the ends), Escape closes.
 * - Swipe: a horizontal pointer move of at least SWIPE_PX that is more sideways than up or down steps; a
 *   vertical move is left to the browser (touch-action: pan-y).
 * - Ladda ner: a link with `download` to the photo's largest size.
 * - The three buttons stay on one line: on a phone the steps show their arrows only (their names stay for screen
 *   readers), so the row never wraps 'Nästa →' onto a line of its own.
 */
import { useEffect, useRef } from "react";
import { carouselSource, downloadName, type GalleryPhoto } from "../../../shared/gallery";
import { SEASON } from "../../../shared/season";
import { buttonClass, Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { GalleryImage } from "./gallery-image";
import "./gallery-carousel.css";

/** How far (CSS px) a finger or mouse must travel sideways to turn the page. */
export const SWIPE_PX = 40;

export interface GalleryCarouselProps {
  year: number;
  photos: readonly GalleryPhoto[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

export default function GalleryCarousel({ year, photos, index, onIndexChange, onClose }: GalleryCarouselProps) {
  const count = photos.length;
  const photo = photos[index];
  const step = (delta: number) => onIndexChange((index + delta + count) % count);
  const start = useRef<{ id: number; x: number; y: number } | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "ArrowRight") onIndexChange((index + 1) % count);
      else if (e.key === "ArrowLeft") onIndexChange((index - 1 + count) % count);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [index, count, onIndexChange]);

  // The neighbours are fetched ahead, so stepping shows the next photo at once.
  useEffect(() => {
    for (const n of [index + 1, index - 1]) {
      const next = photos[(n + count) % count];
      if (!next || count < 2) continue;
      const img = new Image();
      const source = carouselSource(next);
      img.sizes = "100vw";
      if (source.srcSet) img.srcset = source.srcSet;
      img.src = source.src;
    }
  }, [index, count, photos]);

  if (!photo) return null;
  const source = carouselSource(photo);
  const label = `Bild ${index + 1} av ${count}`;

  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent title={label} className="gallery-carousel" closeLabel="Stäng bildvisningen">
        <div
          className="carousel-stage"
          onPointerDown={(e) => {
            start.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
          }}
          onPointerUp={(e) => {
            const from = start.current;
            start.current = null;
            if (!from || from.id !== e.pointerId) return;
            const dx = e.clientX - from.x;
            const dy = e.clientY - from.y;
            if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) step(dx < 0 ? 1 : -1);
          }}
          onPointerCancel={() => {
            start.current = null;
          }}
        >
          <GalleryImage
            className="carousel-image"
            src={source.src}
            srcSet={source.srcSet}
            sizes={source.srcSet ? "100vw" : undefined}
            alt={`${SEASON.siteName} ${year}, bild ${index + 1} av ${count}`}
          />
        </div>
        <div className="carousel-controls">
          <Button onClick={() => step(-1)} disabled={count < 2} aria-label="Föregående bild" className="carousel-step">
            <span aria-hidden="true">←</span> <span className="carousel-step-word">Föregående</span>
          </Button>
          <a
            className={buttonClass({ variant: "primary" })}
            href={photo.url}
            download={downloadName(SEASON.siteName, year, index, photo.url)}
          >
            Ladda ner
          </a>
          <Button onClick={() => step(1)} disabled={count < 2} aria-label="Nästa bild" className="carousel-step">
            <span className="carousel-step-word">Nästa</span> <span aria-hidden="true">→</span>
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
