CREATE TABLE "gateway_notification_positions" (
	"token_id" uuid PRIMARY KEY NOT NULL,
	"acknowledged_up_to" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_notification_positions" ADD CONSTRAINT "gateway_notification_positions_token_id_gateway_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."gateway_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Carry over the positions acknowledged so far, which were read from the audit log until now.
INSERT INTO "gateway_notification_positions" ("token_id", "acknowledged_up_to")
SELECT t."id", max((a."details" ->> 'acknowledgedUpTo')::bigint)
FROM "audit_events" a JOIN "gateway_tokens" t ON t."id"::text = a."actor_id"
WHERE a."action" = 'gateway.notification.acknowledge' AND a."actor_kind" = 'api' AND a."outcome" = 'success'
  AND a."details" ? 'acknowledgedUpTo'
GROUP BY t."id";
