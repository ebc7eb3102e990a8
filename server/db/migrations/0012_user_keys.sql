-- The person's keys, made in the frame. A project's custody mode ('user': nobody but the person can recover,
-- 'operator': the service keeps the recovery share under its KEK), existing projects included; and one
-- share set per user: the service's auth share (sealed under the user's data key, itself under the KEK)
-- and the recovery share, sealed by the person (JSON) or, in operator custody, under the data key.
ALTER TABLE "projects" ADD COLUMN "custody" text DEFAULT 'user' NOT NULL;
--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_custody_check" CHECK ("custody" IN ('user', 'operator'));
--> statement-breakpoint
CREATE TABLE "wallet_share_sets" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"set_id" text NOT NULL,
	"evm_address" text NOT NULL,
	"evm_public_key" text NOT NULL,
	"solana_address" text NOT NULL,
	"data_key_id" uuid NOT NULL REFERENCES "wallet_data_keys"("id"),
	"auth_share" bytea NOT NULL,
	"recovery_method" text CHECK ("recovery_method" IN ('passkey', 'password', 'operator')),
	"recovery_sealed" jsonb,
	"recovery_share" bytea,
	"passkey_credential_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
