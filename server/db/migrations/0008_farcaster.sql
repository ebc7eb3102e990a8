-- Sign In With Farcaster to the embedded wallet: an identity keeps the profile
-- picture its provider gave; a sign-in in progress keeps the relay channel's token and our nonce for
-- 5 minutes, single use.
ALTER TABLE "wallet_identities" ADD COLUMN "picture_url" text;
--> statement-breakpoint
CREATE TABLE "wallet_farcaster_logins" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"channel_token" text NOT NULL,
	"nonce" text NOT NULL,
	"device_id" text NOT NULL,
	"site" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_farcaster_logins_expires_idx" ON "wallet_farcaster_logins" USING btree ("expires_at");
