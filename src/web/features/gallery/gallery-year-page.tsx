/**
 * /galleri/{year}: the year's photos as thumbnails, each opening the fullscreen carousel there.
 *
 * - First HTML: the Worker answers this address (src/worker/site/pages-routes.ts): for a year with photos the page
 *   the build pre-rendered (heading, text, the grid's place), 404 with the shell for any other. The photos are
 *   data (`/img_{year}.txt`), so they arrive after the page. Their number is on <html> (`data-gallery-year`,
 *   `--gallery-photos`, set by the Worker, and here for a year reached by a link when /galleri has given its
 *   count), and the grid's place is reserved at exactly their rows' height (theme.css): the footer neither moves
 *   when they come nor leaves an empty band under a short gallery. With no count known, the page is a screen high
 *   while the photos load.
 * - Thumbnails: `srcset` over 160/320/640 px with `sizes` matching the grid's columns, square-ish boxes of a
 *   fixed aspect ratio (width/height set), the first row loaded at once and the rest `loading="lazy"`.
 * - The carousel is a lazy chunk (gallery-carousel.tsx), fetched when a visitor heads for a thumbnail (pointer,
 *   focus) and shown when one is opened. Closing it puts the focus on the thumbnail of the photo last shown.
 * - States: an address that is not a year, or a year without photos (404), says so with a link to every year;
 *   a failed load shows the error and a retry; a photo that cannot be loaded says so in its box.
 */
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { thumbnailSource } from "../../../shared/gallery";
import { LoadState } from "../../components/ui/load-state";
import { ApiError } from "../../lib/api";
import { useDocumentTitle } from "../../lib/use-document-title";
import { galleryIndexQueryOptions } from "./api/get-gallery-index";
import { useGalleryList } from "./api/get-gallery-list";
import { GalleryImage } from "./gallery-image";

const loadCarousel = () => import("./gallery-carousel");
const GalleryCarousel = lazy(loadCarousel);

/** Thumbnails on the first row at any width (3 columns on a phone, up to 6): loaded at once, not lazily. */
const EAGER = 6;
/** Matches `.gallery-grid`'s columns in theme.css. */
const THUMB_SIZES = "(min-width: 72rem) 11rem, (min-width: 1000px) 17vw, (min-width: 700px) 23vw, 31vw";

export default function GalleryYearPage() {
  const param = useParams().id ?? "";
  const year = /^\d{4}$/.test(param) ? Number(param) : null;
  const list = useGalleryList(year);
  const missing = year === null || (list.error instanceof ApiError && list.error.status === 404);
  useDocumentTitle(missing ? "Galleri saknas" : `Galleri ${year}`);

  const queryClient = useQueryClient();

  // Before the first paint of another year: its count from /galleri's answer if the visitor came from there,
  // else none (the page falls back to a screen's height). The Worker has already set it for the year it served.
  useLayoutEffect(() => {
    const html = document.documentElement;
    if (year !== null && html.dataset.galleryYear === String(year)) return;
    const index = queryClient.getQueryData(galleryIndexQueryOptions().queryKey);
    const count = index?.galleries.find((g) => g.year === year)?.count;
    if (year !== null && count) {
      html.dataset.galleryYear = String(year);
      html.style.setProperty("--gallery-photos", String(count));
    } else {
      delete html.dataset.galleryYear;
      html.style.removeProperty("--gallery-photos");
    }
  }, [year, queryClient]);

  const [open, setOpen] = useState<number | null>(null);
  const [shown, setShown] = useState(0);
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const returnFocus = useRef(false);

  // After the carousel closed (and Radix put the focus back on the thumbnail that opened it), the focus goes to
  // the thumbnail of the photo shown last.
  useEffect(() => {
    if (open !== null || !returnFocus.current) return;
    returnFocus.current = false;
    const timer = setTimeout(() => thumbs.current[shown]?.focus(), 0);
    return () => clearTimeout(timer);
  }, [open, shown]);

  const photos = list.data ?? [];
  const prefetch = () => void loadCarousel();

  return (
    <section className="page gallery-year-page">
      <p className="back-link">
        <Link to="/galleri">← Alla år</Link>
      </p>
      <h1>{year === null ? "Galleri" : `Galleri ${year}`}</h1>
      {missing ? (
        <div className="alert alert-warning" role="alert">
          <p>
            {year === null
              ? `"${param}" är inget årtal. Välj ett år bland alla gallerier.`
              : `Det finns inga bilder från ${year}. Välj ett annat år bland alla gallerier.`}
          </p>
          <p>
            <Link to="/galleri">Till alla gallerier</Link>
          </p>
        </div>
      ) : (
        <>
          <p className="page-lead">
            Tryck på en bild för att se den i helskärm. Bläddra med pilarna, piltangenterna eller genom att svepa, och
            spara en bild i full storlek med Ladda ner. Esc eller Stäng tar dig tillbaka hit.
          </p>
          <div
            className="gallery-grid-area"
            aria-busy={list.isPending || undefined}
            onPointerOver={prefetch}
            onFocus={prefetch}
          >
            {list.data ? (
              <ul className="gallery-grid" aria-label={`Bilder från ${year}`}>
                {photos.map((photo, i) => {
                  const source = thumbnailSource(photo);
                  return (
                    <li key={`${i}-${photo.url}`}>
                      <button
                        type="button"
                        className="gallery-thumb"
                        ref={(el) => {
                          thumbs.current[i] = el;
                        }}
                        aria-label={`Visa bild ${i + 1} av ${photos.length} i helskärm`}
                        onClick={() => {
                          setShown(i);
                          setOpen(i);
                        }}
                      >
                        <GalleryImage
                          src={source.src}
                          srcSet={source.srcSet}
                          sizes={source.srcSet ? THUMB_SIZES : undefined}
                          alt=""
                          width={320}
                          height={213}
                          loading={i < EAGER ? "eager" : "lazy"}
                        />
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <LoadState query={list} loading="Hämtar bilderna …" />
            )}
          </div>
        </>
      )}
      {open !== null && year !== null && (
        <Suspense fallback={null}>
          <GalleryCarousel
            year={year}
            photos={photos}
            index={shown}
            onIndexChange={setShown}
            onClose={() => {
              returnFocus.current = true;
              setOpen(null);
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
