"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { PatientPicker } from "@/components/eligibility/patient-picker";
import { Button } from "@/components/ui/button";
import type { PatientSummary } from "@/lib/patients";
import { uploadVisitListAction } from "@/lib/visits/browser";
import { DataTable } from "@/components/ui/data-table";

const cell = "py-1 pe-2";

interface Picked {
  patient: PatientSummary;
  serviceDate: string;
  services: string;
}

const input = "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** A list from registered patients picked one by one (front desk), checked now. */
export function PickForm({ defaultDate }: { defaultDate: string }) {
  const t = useTranslations("visits.pick");
  const router = useRouter();
  const ids = { name: useId() };
  const [picked, setPicked] = useState<Picked[]>([]);
  const [name, setName] = useState(defaultDate);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function submit() {
    setBusy(true);
    setFailed(false);
    const result = await uploadVisitListAction({
      name: name.trim() || defaultDate,
      items: picked.map((p) => ({ nationalId: p.patient.nationalId, serviceDate: p.serviceDate, services: p.services.split(/[\s,;]+/).filter(Boolean) })),
      run: "now",
    });
    if (result.ok) router.push(`/visits/lists/${result.listId}`);
    else {
      setBusy(false);
      setFailed(true);
    }
  }

  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={ids.name} className="text-sm font-medium text-slate-800">
          {t("name")}
        </label>
        <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} className={`${input} mt-1`} maxLength={120} />
      </div>
      <PatientPicker
        value={undefined}
        onChange={(patient) => {
          if (patient && !picked.some((p) => p.patient.id === patient.id)) setPicked((list) => [...list, { patient, serviceDate: defaultDate, services: "" }]);
        }}
      />
      {picked.length > 0 && (
        <DataTable
          label={t("title")}
          testId="picked"
          maxHeight=""
          dense
          rows={picked.map((p, i) => ({ ...p, i }))}
          rowKey={(p) => p.patient.id}
          rowProps={() => ({})}
          columns={[
            { id: "patient", header: t("patient"), className: cell, cell: (p) => `${p.patient.givenName} ${p.patient.familyName}` },
            {
              id: "date",
              header: t("date"),
              className: cell,
              cell: (p) => (
                <input type="date" aria-label={`${t("date")} ${p.patient.givenName} ${p.patient.familyName}`} value={p.serviceDate} onChange={(e) => setPicked((list) => list.map((x, j) => (j === p.i ? { ...x, serviceDate: e.target.value } : x)))} className={input} />
              ),
            },
            {
              id: "services",
              header: t("services"),
              className: cell,
              cell: (p) => (
                <input aria-label={`${t("services")} ${p.patient.givenName} ${p.patient.familyName}`} placeholder="99213 71046" value={p.services} onChange={(e) => setPicked((list) => list.map((x, j) => (j === p.i ? { ...x, services: e.target.value } : x)))} className={input} dir="ltr" />
              ),
            },
            {
              id: "remove",
              header: <span className="sr-only">{t("remove")}</span>,
              label: "",
              className: "py-1",
              cell: (p) => (
                <button type="button" className="text-sm text-red-800 underline" onClick={() => setPicked((list) => list.filter((_, j) => j !== p.i))}>
                  {t("remove")}
                </button>
              ),
            },
          ]}
        />
      )}
      {failed && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {t("failed")}
        </p>
      )}
      <Button type="button" busy={busy} disabled={picked.length === 0} onClick={() => void submit()}>
        {t("submit", { count: picked.length })}
      </Button>
    </div>
  );
}
