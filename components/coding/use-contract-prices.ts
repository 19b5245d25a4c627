"use client";

import { useEffect, useRef, useState } from "react";
import type { UseFormGetValues, UseFormSetValue } from "react-hook-form";
import { contractPricesAction } from "@/lib/contracts/browser";
import type { SubmissionFormInput } from "@/lib/submissions";

const DEBOUNCE_MS = 300;

/** Halalas as the price box takes them: "150.00" (no grouping, so the form parses it back exactly). */
export const priceText = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;

type Line = { system?: string; code?: string; servicedDate?: string; unitPrice?: string } | undefined;

/**
 * The payer's contract price of each service line (decision 123; the prices are lib/contracts'):
 * once a patient, a coverage and a line's service and date are known, the form asks the server for
 * the price of the coverage's payer, network and class on that date, fills the line's unit price
 * with it when the box is empty or still holds the price this hook put there (and is not being
 * typed in), and returns the
 * prices so each line can show "contract price" beside its box. A price the user typed is never
 * replaced; a line whose new service the contract does not price gets its prefilled price cleared.
 */
export function useContractPrices({
  patientId,
  coverageId,
  items,
  getValues,
  setValue,
}: {
  patientId: string | undefined;
  coverageId: string | undefined;
  items: readonly Line[];
  getValues: UseFormGetValues<SubmissionFormInput>;
  setValue: UseFormSetValue<SubmissionFormInput>;
}): ReadonlyMap<number, number> {
  const [prices, setPrices] = useState<ReadonlyMap<number, number>>(new Map());
  // What this hook wrote in each line's price box (by line position): only that may be replaced.
  const filled = useRef(new Map<number, string>());
  const asked = useRef(0);
  const key = JSON.stringify([patientId ?? "", coverageId ?? "", items.map((i) => [i?.system ?? "", i?.code ?? "", i?.servicedDate ?? ""])]);

  useEffect(() => {
    const [patient, coverage, lines] = JSON.parse(key) as [string, string, string[][]];
    const n = ++asked.current;
    if (!patient || !coverage) return;
    const complete = lines.slice(0, 100).flatMap(([system = "", code = "", servicedDate = ""], index) =>
      /^\S{1,60}$/.test(code.trim()) && /^\d{4}-\d{2}-\d{2}$/.test(servicedDate) ? [{ index, system, code: code.trim(), servicedDate }] : [],
    );
    const timer = setTimeout(() => {
      contractPricesAction({ patientId: patient, coverageId: coverage, lines: complete })
        .then((result) => {
          if (n !== asked.current) return; // a newer edit is on its way
          const next = new Map(result.ok ? result.prices.map((p) => [p.index, p.priceMinor] as const) : []);
          setPrices(next);
          for (let index = 0; index < lines.length; index++) {
            const current = (getValues(`items.${index}.unitPrice`) ?? "").trim();
            const mine = filled.current.get(index);
            const ours = current === "" || current === mine;
            // Never under the user's hands: a box being typed in keeps what is typed (the next change prices it).
            if (!ours || document.activeElement?.id === `item-${index}-price`) continue;
            const price = next.get(index);
            if (price !== undefined) {
              const text = priceText(price);
              filled.current.set(index, text);
              if (current !== text) setValue(`items.${index}.unitPrice`, text, { shouldDirty: true });
            } else if (mine !== undefined) {
              // The line's service changed to one the contract does not price: the old price is not its price.
              filled.current.delete(index);
              setValue(`items.${index}.unitPrice`, "", { shouldDirty: true });
            }
          }
        })
        .catch(() => n === asked.current && setPrices(new Map()));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, getValues, setValue]);

  return patientId && coverageId ? prices : NONE;
}

const NONE: ReadonlyMap<number, number> = new Map();
