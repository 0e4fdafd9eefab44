import { useEffect } from "react";
import { SEASON } from "../../shared/season";
import { SITE_NAME } from "./site";

/** 'Banor – Byloppet'; 'Byloppet 2025' for the start page. Pre-rendered pages get the same title at build. */
export function documentTitle(page?: string): string {
  return page ? `${page} – ${SITE_NAME}` : `${SITE_NAME} ${SEASON.year}`;
}

export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
