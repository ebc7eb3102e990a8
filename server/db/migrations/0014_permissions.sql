-- The permissions (ERC-7715 sessions) a person granted sites, indexed per smart account
-- and session key. The chain enforces them; this says which site asked, for what, and where to look.
CREATE TABLE "wallet_permissions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"chain_id" text NOT NULL,
	"account" text NOT NULL,
	"session_key" text NOT NULL,
	"grant" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"granted_op" text,
	"revoked_at" timestamp with time zone,
	"revoked_op" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_permissions_key_unique" ON "wallet_permissions" USING btree ("chain_id", "account", "session_key");
--> statement-breakpoint
CREATE INDEX "wallet_permissions_user_idx" ON "wallet_permissions" USING btree ("user_id", "chain_id");
