-- Social sign-in to the embedded wallet: a user may have no e-mail (an identity whose
-- provider gives none, or an unverified one); each provider identity belongs to one user; a sign-in
-- in progress keeps its state (as SHA-256), nonce and PKCE verifier for 10 minutes, single use.
ALTER TABLE "wallet_users" ALTER COLUMN "email" DROP NOT NULL;
--> statement-breakpoint
CREATE TABLE "wallet_identities" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"username" text,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_identities_pk" PRIMARY KEY("project_id","provider","subject")
);
--> statement-breakpoint
CREATE INDEX "wallet_identities_user_idx" ON "wallet_identities" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "wallet_social_logins" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"provider" text NOT NULL,
	"state_hash" bytea NOT NULL UNIQUE,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"device_id" text NOT NULL,
	"site" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"callback_at" timestamp with time zone,
	"user_id" uuid REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"username" text,
	"error_code" text,
	"error_message" text,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_social_logins_expires_idx" ON "wallet_social_logins" USING btree ("expires_at");
