-- docs/decisions/086: the code catalogue (imports by version, codes searched by code prefix and by words).
CREATE TABLE "terminology_codes" (
	"system" text NOT NULL,
	"code" text NOT NULL,
	"display_en" text NOT NULL,
	"display_ar" text DEFAULT '' NOT NULL,
	"search_code" text NOT NULL,
	"search_words" text NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_words)) STORED,
	"version" text NOT NULL,
	"import_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "terminology_codes_system_code_pk" PRIMARY KEY("system","code")
);
--> statement-breakpoint
CREATE TABLE "terminology_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"system" text NOT NULL,
	"version" text NOT NULL,
	"format" text NOT NULL,
	"file_name" text,
	"imported" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"imported_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "terminology_codes_search_code_idx" ON "terminology_codes" USING btree ("search_code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_codes_words_idx" ON "terminology_codes" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "terminology_imports_system_idx" ON "terminology_imports" USING btree ("system","created_at");