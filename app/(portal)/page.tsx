import { redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/guards";
import { homeFor } from "@/lib/auth/roles";

export default async function Home() {
  redirect(homeFor((await requireUser()).roles));
}
