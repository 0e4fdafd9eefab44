/**
 * The course records (spec: distance, name, year, time). One row per distance from the first render, and each name
 * in a box of fixed height (two lines on a phone, one on a wide screen, theme.css), so the pre-rendered table has
 * its final shape and the names and times fill in without moving anything below.
 */
import { useDeferredValue } from "react";
import { DISTANCES } from "../../../shared/distances";
import { LoadState } from "../../components/ui/load-state";
import { kmText } from "../../lib/season-text";
import { useRecords } from "./api/get-records";

export function RecordsTable() {
  const records = useRecords();
  // As a transition: see results-page.tsx.
  const data = useDeferredValue(records.data);
  const placeholder = data === undefined && !records.isError ? "…" : "–";
  return (
    <>
      <div className="table-scroll">
        <table className="table data-table records-table" aria-busy={data === undefined || undefined}>
          <caption className="visually-hidden">Banrekord per distans</caption>
          <thead>
            <tr>
              <th scope="col">Distans</th>
              <th scope="col">Namn</th>
              <th scope="col" className="num">
                År
              </th>
              <th scope="col" className="num">
                Tid
              </th>
            </tr>
          </thead>
          <tbody>
            {DISTANCES.map((d) => {
              const record = data?.find((r) => r.distance === d);
              return (
                <tr key={d}>
                  <th scope="row">{kmText(d)}</th>
                  <td className="name">
                    <span className="record-name" title={record?.name}>
                      {record?.name ?? placeholder}
                    </span>
                  </td>
                  <td className="num">{record?.year ?? placeholder}</td>
                  <td className="num">{record?.time ?? placeholder}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {records.isError && <LoadState query={records} loading="" />}
    </>
  );
}
