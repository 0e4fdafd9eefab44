/**
 * Invented Swedish-sounding people for the demo data: common first names with made-up compound surnames,
 * combined at random. Clubs and companies are invented too. E-mail addresses use example.se (RFC 2606 style
 * reserved-for-examples domain), so no demo e-mail can reach a real inbox.
 */
export const FEMALE = [
  "Anna",
  "Eva",
  "Maria",
  "Karin",
  "Sara",
  "Lena",
  "Emma",
  "Elin",
  "Johanna",
  "Linnea",
  "Maja",
  "Ebba",
  "Alice",
  "Wilma",
  "Elsa",
  "Agnes",
  "Saga",
  "Ella",
  "Alva",
  "Astrid",
  "Freja",
  "Stina",
  "Ingrid",
  "Klara",
  "Tove",
  "Frida",
  "Hanna",
  "Moa",
  "Siri",
  "Vera",
  "Tyra",
  "Ida",
  "Lova",
  "Märta",
  "Sigrid",
];

export const MALE = [
  "Erik",
  "Lars",
  "Anders",
  "Johan",
  "Per",
  "Karl",
  "Magnus",
  "Fredrik",
  "Mikael",
  "Oskar",
  "Axel",
  "Hugo",
  "Viktor",
  "Elias",
  "Leo",
  "Liam",
  "Noah",
  "Wilhelm",
  "Alfred",
  "Arvid",
  "Ludvig",
  "Olle",
  "Sixten",
  "Nils",
  "Gustav",
  "Henrik",
  "Jonas",
  "Mattias",
  "Daniel",
  "Isak",
  "Melvin",
  "Theo",
  "Måns",
  "Björn",
];

const SURNAME_START = [
  "Ek",
  "Björk",
  "Lind",
  "Sjö",
  "Gran",
  "Löv",
  "Tall",
  "Ask",
  "Hassel",
  "Rönn",
  "Sten",
  "Äng",
  "Ljung",
  "Lönn",
  "Vass",
  "Hag",
  "Kvarn",
  "Bäck",
  "Myr",
  "Sälg",
  "Fur",
  "Hed",
  "Strand",
  "Kull",
  "Ved",
  "Mal",
  "Ros",
  "Nor",
];

const SURNAME_END = [
  "dal",
  "lund",
  "ström",
  "qvist",
  "mark",
  "gren",
  "holm",
  "vik",
  "by",
  "näs",
  "hammar",
  "blad",
  "torp",
  "gård",
  "hall",
  "mo",
  "ö",
  "vall",
];

export const CLUBS = ["IK Ekbacken", "Sjöviks LK", "Tallmo IF", "Löparglädje Norrby", "Byns Motionärer"];

export const COMPANIES = [
  "Granholms Bygg AB",
  "Ljungdals El AB",
  "Kvarnbäckens Bageri",
  "Tallmo Konsult AB",
  "Åsviks Redovisning",
];

export function surname(random) {
  const start = random.pick(SURNAME_START);
  let end = random.pick(SURNAME_END);
  // "Sjö" + "ö" and friends read badly.
  while (start.endsWith(end) || start.at(-1) === end[0]) end = random.pick(SURNAME_END);
  return start + end;
}

/** 'Åsa Öberg' → 'asa.oberg' for an e-mail local part. */
export function asciiSlug(text) {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");
}
