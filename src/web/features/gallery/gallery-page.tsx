/**
 * /galleri (spec, public site "Gallery"): a card per year from the year before the season down to 2014, each
 * linking to /galleri/{year}. Pre-rendered at build (entry-prerender.tsx) with every card: the years come from
 * the season config (galleryYears), not from data, so the first HTML is the whole page. `/api/gallery` then
 * fills in each card's cover photo and photo count, in boxes whose size is already set (nothing shifts); a year
 * without photos says so instead of linking to an empty page, and a year with photos outside that range gets
 * its card too: a newer one (the season's own, added after the race) first, an older one last.
 */
import { Link } from "react-router";
import { galleryYears, parseGalleryUrl, thumbnailSource } from "../../../shared/gallery";
import { SEASON } from "../../../shared/season";
import { useDocumentTitle } from "../../lib/use-document-title";
import { useGalleryIndex, type GallerySummary } from "./api/get-gallery-index";
import { GalleryImage } from "./gallery-image";

/** Cards are two columns on a phone, up to four on a wide screen (theme.css `.gallery-cards`). */
const CARD_SIZES = "(min-width: 72rem) 17rem, (min-width: 700px) 30vw, 46vw";

export default function GalleryPage() {
  useDocumentTitle("Galleri");
  const index = useGalleryIndex();
  const byYear = new Map(index.data?.galleries.map((g) => [g.year, g]));
  const built = galleryYears(SEASON.year);
  const dataYears = index.data?.years ?? [];
  const years = [...dataYears.filter((y) => y > built[0]!), ...built, ...dataYears.filter((y) => y < built.at(-1)!)];

  return (
    <section className="page gallery-page">
      <h1>Galleri</h1>
      <p className="page-lead">
        Bilder från loppen år för år. Välj ett år för att se alla bilder, bläddra i helskärm med pilarna eller genom att
        svepa, och ladda ner de bilder du vill spara. Syns du på en bild som du hellre vill att vi tar bort?{" "}
        <a href={`mailto:${SEASON.contactEmail}`}>Skriv till oss</a>, så tar vi bort den.
      </p>
      {index.isError && (
        <p className="muted gallery-index-error" role="status">
          Bilderna till korten kunde inte hämtas just nu. Åren går ändå att öppna.
        </p>
      )}
      <ul className="gallery-cards">
        {years.map((year, i) => (
          <li key={year}>
            <YearCard
              year={year}
              summary={byYear.get(year)}
              known={index.isSuccess}
              // The first row is on screen at once; the rest load as they are scrolled to.
              eager={i < 4}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function YearCard({
  year,
  summary,
  known,
  eager,
}: {
  year: number;
  summary: GallerySummary | undefined;
  known: boolean;
  eager: boolean;
}) {
  const empty = known && !summary;
  const cover = summary ? thumbnailSource(parseGalleryUrl(summary.cover)) : null;
  const body = (
    <>
      <span className="gallery-card-cover">
        {cover ? (
          <GalleryImage
            src={cover.src}
            srcSet={cover.srcSet}
            sizes={CARD_SIZES}
            alt=""
            width={320}
            height={213}
            loading={eager ? "eager" : "lazy"}
          />
        ) : empty ? (
          <span className="gallery-card-none">Inga bilder ännu</span>
        ) : null}
      </span>
      <span className="gallery-card-year">{year}</span>
      <span className="gallery-card-count">
        {summary ? `${summary.count} bilder` : empty ? "Inga bilder" : "\u00a0"}
      </span>
    </>
  );
  if (empty) return <div className="gallery-card gallery-card-empty">{body}</div>;
  return (
    <Link className="gallery-card" to={`/galleri/${year}`}>
      {body}
    </Link>
  );
}
