-- Sponsored gas (ERC-7677). A project's paymaster policy (networks, contracts, a daily
-- budget per sender and in total, in wei of maximum gas cost) and what its paymaster approved each UTC
-- day (one row per sender, and sender '*' for the project's total).
CREATE TABLE "paymaster_policies" (
	"project_id" text PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"networks" jsonb NOT NULL,
	"contracts" jsonb NOT NULL,
	"per_user_daily_wei" numeric(78, 0) NOT NULL CHECK ("per_user_daily_wei" >= 0),
	"total_daily_wei" numeric(78, 0) NOT NULL CHECK ("total_daily_wei" >= 0),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paymaster_spending" (
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"sender" text NOT NULL,
	"spent_wei" numeric(78, 0) DEFAULT '0' NOT NULL,
	CONSTRAINT "paymaster_spending_pk" PRIMARY KEY ("project_id", "day", "sender")
);
