-- The embedded wallet: users (by e-mail, per project), their keys under envelope encryption, one-time
-- codes, approved browsers, sessions of the wallet frame, e-mail updates, requests waiting for approval
-- and sent call batches. Secrets are stored as hashes (codes: HMAC under a key derived from the KEK;
-- tokens: SHA-256); private keys only as AES-256-GCM ciphertext under a data key wrapped by the KEK.
CREATE TABLE "wallet_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_users_project_email_unique" UNIQUE("project_id","email")
);
--> statement-breakpoint
CREATE TABLE "wallet_data_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL UNIQUE REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"kek_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"wrapped" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rewrapped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_data_keys_kek_idx" ON "wallet_data_keys" USING btree ("kek_id");
--> statement-breakpoint
CREATE TABLE "wallet_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"curve" text NOT NULL CHECK ("curve" IN ('secp256k1', 'ed25519')),
	"address" text NOT NULL,
	"public_key" text NOT NULL,
	"data_key_id" uuid NOT NULL REFERENCES "wallet_data_keys"("id"),
	"version" integer DEFAULT 1 NOT NULL,
	"encrypted" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_keys_user_curve_unique" UNIQUE("user_id","curve")
);
--> statement-breakpoint
CREATE TABLE "wallet_email_throttle" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_count" integer NOT NULL,
	CONSTRAINT "wallet_email_throttle_pk" PRIMARY KEY("project_id","email")
);
--> statement-breakpoint
CREATE TABLE "wallet_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"purpose" text NOT NULL CHECK ("purpose" IN ('login', 'update-primary', 'update-secondary')),
	"code_hash" bytea NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"device_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_codes_expires_idx" ON "wallet_codes" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "wallet_devices" (
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"device_id" text NOT NULL,
	"approved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wallet_devices_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "wallet_device_approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"device_id" text NOT NULL,
	"token_hash" bytea NOT NULL UNIQUE,
	"site" text NOT NULL,
	"browser" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone,
	"denied_at" timestamp with time zone,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_device_approvals_expires_idx" ON "wallet_device_approvals" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "wallet_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"device_id" text NOT NULL,
	"site" text NOT NULL,
	"token_hash" bytea NOT NULL UNIQUE,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_sessions_user_idx" ON "wallet_sessions" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "wallet_email_updates" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"new_email" text NOT NULL,
	"primary_code_id" text NOT NULL,
	"primary_verified_at" timestamp with time zone,
	"secondary_code_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallet_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"session_id" uuid NOT NULL,
	"chain_id" text NOT NULL,
	"method" text NOT NULL,
	"params" jsonb NOT NULL,
	"prepared" jsonb,
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'approved', 'rejected', 'done', 'failed')),
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_requests_expires_idx" ON "wallet_requests" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "wallet_call_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"chain_id" text NOT NULL,
	"tx_hashes" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
