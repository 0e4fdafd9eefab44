/**
 * The volunteers' guide (issue 40): the bib desk and the finish line on race day, in Swedish, as data. The page
 * (help-page.tsx, /admin/hjalp, 'Hjälp' in the admin menu) draws it, and prints it on at most two A4 pages.
 *
 * A text in '…' is a text on a screen (a button, a heading, a status), written exactly as the screen shows it; the
 * page draws it as a button-like label. test/shared/volunteer-guide.test.ts finds every one of them among the texts
 * of src/web and src/shared, so renaming a button without changing this guide fails a test.
 *
 * The pictures are screenshots of the real screens at 390 px, made by `node scripts/guide-screenshots.mjs` into
 * public/hjalp/ (so the width and height here are those of the files, which the same test checks). The admin
 * service worker keeps them, so the guide opens without a connection too (scripts/service-workers.mjs).
 */

export interface GuideImage {
  /** Where the file is served (public/hjalp/…). */
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface GuideSection {
  id: string;
  title: string;
  /** One short instruction each, drawn as a list. */
  steps: readonly string[];
  images: readonly GuideImage[];
}

/** The pictures' scale: device pixels per CSS pixel of the 390 px phone they were taken on. */
export const GUIDE_IMAGE_SCALE = 1.5;

const image = (name: string, alt: string, cssHeight: number): GuideImage => ({
  src: `/hjalp/${name}.webp`,
  alt,
  width: 390 * GUIDE_IMAGE_SCALE,
  height: cssHeight * GUIDE_IMAGE_SCALE,
});

export const GUIDE_TITLE = "Hjälp för funktionärer";

export const GUIDE_LEAD =
  "Nummerlappsdisken och målet på tävlingsdagen, på telefonen. Finns i menyn under 'Hjälp', också utan nät.";

export const GUIDE_SECTIONS: readonly GuideSection[] = [
  {
    id: "fore",
    title: "Innan du börjar",
    steps: [
      "Logga in på /admin/login medan du har täckning. Menyn (☰ uppe till vänster) har alla sidor.",
      "Tidtagare: välj 'Lopp' och ditt lopp, till exempel race-250913-56. Står det 'socket ansluten' under rubriken är telefonen uppkopplad; vid 'socket stängd' försöker den igen av sig själv.",
      "Öppna ditt lopp en gång med täckning: då finns det kvar i telefonen om nätet försvinner.",
    ],
    images: [],
  },
  {
    id: "nummerlappar",
    title: "Nummerlappsdisken",
    steps: [
      "Menyn → 'Nummerlappar'. Tryck 'Skanna QR-kod' och håll kvittots QR-kod framför kameran, eller skriv namn, e-post, startnummer eller koden i sökrutan och tryck på familjen.",
      "Ge nummerlappen och tryck 'Hämtat' för löparen, eller 'Hämtat – hela familjen'. Fel löpare: 'Ångra'.",
      "Saknar löparen nummer: 'Nästa nummer', eller skriv ett nummer och tryck 'Ange'.",
      "'Ej betald': familjen betalar i kassan ('Till kassan'). 'Redan hämtat' med ett klockslag: familjen har redan fått sina nummerlappar.",
      "Utan nät: fortsätt. 'Ej skickade' räknar det som väntar; det skickas när nätet är tillbaka.",
    ],
    images: [
      image(
        "nummerlappar",
        "Nummerlappar: en familj med två löpare hittad på efternamnet, med Hämtat för varje löpare och för hela familjen.",
        560,
      ),
    ],
  },
  {
    id: "start",
    title: "Före start och startskottet",
    steps: [
      "Varje löpare är en bricka: förnamn, startnummer ('?' om numret saknas) och efternamn. 'ej hämtad' betyder att nummerlappen inte är hämtad; 'Ej hämtat nummerlapp' räknar dem.",
      "Före starten ger ett tryck på en bricka löparen ett nummer: skriv det i 'Ange startnummer för …' och tryck 'Spara', eller tryck 'Nästa lediga nummer'.",
      "En enda person trycker 'Starta' när startskottet går, och klockan går på alla telefoner. Utan nät sparar telefonen ögonblicket ('Start ej skickad') och skickar det när den kan.",
    ],
    images: [
      image("fore-start", "Loppet före start: knappen Starta och löparnas brickor, två utan hämtad nummerlapp.", 560),
    ],
  },
  {
    id: "mal",
    title: "Målgång: tryck på brickan",
    steps: [
      "I läget 'Löpare': tryck på löparens bricka när löparen passerar mållinjen. Brickan blir grön, 'i mål', och löparen står under 'Resultat' på alla telefoner.",
      "Flera får trycka på samma löpare: det tidigaste trycket gäller. Trycker du på en grön bricka frågar telefonen 'Ny tid för …?': 'Ersätt tiden' eller 'Behåll'.",
      "Fel löpare: 'Ångra' i resultatlistan. '⋯' på brickan (eller ett långt tryck) har 'Ange startnummer', 'Markera ej start' och 'Byt distans'.",
    ],
    images: [image("malgang", "Löpare i mål: gröna brickor och resultatlistan med Ångra.", 560)],
  },
  {
    id: "snabb",
    title: "Många i mål samtidigt: 'Mål!' och startnummer",
    steps: [
      "Välj läget 'Mål!' och tryck på den stora knappen längst ner en gång för varje löpare som passerar linjen, utan att välja löpare. Tiderna står under 'Måltider'.",
      "Sedan väljer du (eller en kollega) 'Startnummer' och skriver numren i den ordning löparna kom i mål, 'OK' efter varje. Varje nummer får nästa tid. Felskrivet: 'Ta bort'.",
      "Två telefoner får båda trycka 'Mål!' (tiderna slås ihop), men bara en skriver startnummer. Tryck på en tid i listan för att ge den en löpare eller 'Kasta tiden'.",
    ],
    images: [
      image("mal-knappen", "Läget Mål!: fem måltider utan löpare och den stora knappen Mål! längst ner.", 560),
      image("startnummer", "Läget Startnummer: knappsatsen och numren i målordning med sina tider.", 620),
    ],
  },
  {
    id: "granska",
    title: "'Att granska'",
    steps: [
      "Det loppet inte kunde ta emot som det var (ett tryck före starten, ett nummer som inte finns, en tid utan nummer) hamnar under 'Att granska' på alla telefoner, med vem, vilken telefon, när och varför. Inget försvinner.",
      "Knapparna säger vad de gör: 'Använd' tar ett tryck med sin tid, 'Kasta' tar bort det; att ta bort något frågar först. Felskrivet nummer: tryck på rätt löpare, 'Menade du …?'.",
      "Visar telefonen 'Andra löpare får nya tider': kontrollera listan och tryck 'Ändra tiderna', eller 'Avbryt' så ändras inget. Osäker? Låt tävlingsledaren avgöra.",
    ],
    images: [image("att-granska", "Att granska: ett nummer som inte finns i loppet, med förslagen Menade du.", 450)],
  },
  {
    id: "utan-nat",
    title: "Utan nät",
    steps: [
      "Fortsätt trycka som vanligt. Telefonen visar 'You are NOT connected to the network.' eller 'socket stängd' och räknar 'Ej skickade måltider'.",
      "Trycken sparas i telefonen med ögonblicket du tryckte och skickas av sig själva, i ordning, när nätet är tillbaka, även om sidan laddas om. Utan nät öppnas loppet som det senast var, märkt 'Offline.'",
      "'Ej skickade, servern sa nej': läs skälet och tryck 'Försök igen'. 'Kasta' bara om tävlingsledaren säger det.",
    ],
    images: [
      image("utan-nat", "Utan nät: socket stängd och två måltider som inte är skickade, medan klockan går.", 430),
    ],
  },
  {
    id: "slut",
    title: "När alla är i mål",
    steps: [
      "Har någon aldrig hämtat sin nummerlapp: efter starten markerar 'Markera ej hämtade som DNS' dem som ej startade (skriv DNS).",
      "När ingen springer längre (alla i mål eller 'ej start') visas 'Avsluta lopp': tryck en gång.",
      "När 'Att granska' är tomt trycker tävlingsledaren (en arrangör) 'Markera som officiella'; resultaten blir 'Officiella'.",
      "'Återställ lopp' raderar starten och alla tider: bara arrangörer ser knappen, och bara på tävlingsledarens ord.",
    ],
    images: [image("avsluta", "Alla i mål: knappen Avsluta lopp och Resultat: Preliminära.", 380)],
  },
];

/** A step split into plain text and screen texts ('…'), in order. */
export type GuidePart = { text: string; screen: boolean };

export function guideParts(step: string): GuidePart[] {
  return step
    .split(/'([^']+)'/)
    .map((text, i) => ({ text, screen: i % 2 === 1 }))
    .filter((p) => p.text !== "");
}

/** Every screen text the guide quotes, once each. */
export function quotedScreenTexts(): string[] {
  const all = [GUIDE_LEAD, ...GUIDE_SECTIONS.flatMap((s) => [s.title, ...s.steps])];
  return [
    ...new Set(
      all.flatMap((t) =>
        guideParts(t)
          .filter((p) => p.screen)
          .map((p) => p.text),
      ),
    ),
  ];
}
