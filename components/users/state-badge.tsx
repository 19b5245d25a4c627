import { Badge } from "@/components/ui/card";

type StateKey = "state.active" | "state.disabled" | "state.locked" | "state.mustChange";

/** An account's state in words (decision 102): disabled, locked, or active (and a pending password change). */
export function StateBadge({ user, t }: { user: { state: "active" | "disabled" | "locked"; mustChangePassword: boolean }; t: (key: StateKey) => string }) {
  if (user.state === "disabled") return <Badge tone="red">{t("state.disabled")}</Badge>;
  if (user.state === "locked") return <Badge tone="amber">{t("state.locked")}</Badge>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      <Badge tone="green">{t("state.active")}</Badge>
      {user.mustChangePassword && <Badge tone="blue">{t("state.mustChange")}</Badge>}
    </span>
  );
}
