-- Initial schema of the companion service. Table names are not schema-qualified, so the service can
-- keep its tables in the schema named by DATABASE_SCHEMA (the connection's search_path).
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"analytics_enabled" boolean DEFAULT true NOT NULL,
	"features" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_origins" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_origins_project_id_origin_pk" PRIMARY KEY("project_id","origin")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_id" text NOT NULL,
	"chains" text[] DEFAULT '{}'::text[] NOT NULL,
	"mobile_link" text,
	"desktop_link" text,
	"webapp_link" text,
	"rdns" text,
	"homepage" text,
	"badge_type" text DEFAULT 'none' NOT NULL CHECK ("badge_type" IN ('none', 'certified')),
	"position" integer NOT NULL,
	"source" text DEFAULT 'seed' NOT NULL CHECK ("source" IN ('seed', 'custom')),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallets_position_idx" ON "wallets" USING btree ("position","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_rdns_idx" ON "wallets" USING btree ("rdns") WHERE "rdns" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "images" (
	"kind" text NOT NULL CHECK ("kind" IN ('wallet', 'asset', 'currency', 'token')),
	"id" text NOT NULL,
	"content_type" text NOT NULL,
	"etag" text NOT NULL,
	"data" bytea NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"event_id" uuid NOT NULL,
	"sdk_type" text NOT NULL,
	"sdk_version" text NOT NULL,
	"origin" text,
	"url" text NOT NULL,
	"domain" text NOT NULL,
	"event_type" text NOT NULL,
	"event_name" text NOT NULL,
	"properties" jsonb,
	"address" text,
	"client_timestamp" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_events_project_id_event_id_pk" PRIMARY KEY("project_id","event_id")
);
--> statement-breakpoint
CREATE INDEX "analytics_events_project_received_idx" ON "analytics_events" USING btree ("project_id","received_at");
