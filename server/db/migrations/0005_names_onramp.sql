-- Wallet-side names (one label per suffix, one name per address and suffix) and on-ramp purchases.
CREATE TABLE "names" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"suffix" text NOT NULL,
	"label" text NOT NULL,
	"address" text NOT NULL,
	"chain_id" text NOT NULL,
	"avatar" text,
	"issued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "names_suffix_label_unique" ON "names" USING btree ("suffix","label");
--> statement-breakpoint
CREATE UNIQUE INDEX "names_suffix_address_unique" ON "names" USING btree ("suffix","address");
--> statement-breakpoint
CREATE TABLE "onramp_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"provider" text NOT NULL,
	"address" text NOT NULL,
	"network" text NOT NULL,
	"purchase_currency" text NOT NULL,
	"payment_currency" text NOT NULL,
	"payment_method" text NOT NULL,
	"payment_amount" text NOT NULL,
	"purchase_amount" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'completed', 'failed')),
	"tx_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "onramp_purchases_address_idx" ON "onramp_purchases" USING btree ("address");
