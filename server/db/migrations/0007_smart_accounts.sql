ALTER TABLE "wallet_users" ADD COLUMN "preferred_account_type" text DEFAULT 'eoa' NOT NULL CHECK ("preferred_account_type" IN ('eoa', 'smartAccount'));
--> statement-breakpoint
ALTER TABLE "wallet_call_batches" ADD COLUMN "user_op_hash" text;
