CREATE TABLE "import_mappings" (
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" text NOT NULL,
	"checksum" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_source_kind_source_id_pk" PRIMARY KEY("source","kind","source_id")
);
