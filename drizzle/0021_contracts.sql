CREATE TABLE "contract_prices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"insurer_id" text NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"coverage_class" text DEFAULT '' NOT NULL,
	"system" text NOT NULL,
	"code" text NOT NULL,
	"price_minor" integer NOT NULL,
	"currency" text DEFAULT 'SAR' NOT NULL,
	"effective_from" date NOT NULL,
	"effective_to" date,
	"is_package" boolean DEFAULT false NOT NULL,
	"includes" text[] DEFAULT '{}'::text[] NOT NULL,
	"authorization_required" boolean DEFAULT false NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_prices" ADD CONSTRAINT "contract_prices_insurer_id_insurers_id_fk" FOREIGN KEY ("insurer_id") REFERENCES "public"."insurers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_prices_key_uq" ON "contract_prices" USING btree ("insurer_id","network","coverage_class","system","code","effective_from");--> statement-breakpoint
CREATE INDEX "contract_prices_lookup_idx" ON "contract_prices" USING btree ("insurer_id","system","code");