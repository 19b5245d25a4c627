import { redirect } from "next/navigation";
import { requireUser, homeFor } from "@/lib/auth";

export default async function Home() {
  redirect(homeFor((await requireUser()).roles));
}
