import { z } from "zod";
import { isoTime } from "../../clock";
import { defaultUserId, isoDateTime, positiveId, seedRows, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { NOTIFICATIONS } from "./model";

/** `notifications` of an account: `userId` defaults to the first user, `createdAt` to the start. */

const notificationSchema = z.object({
  id: positiveId.optional(),
  userId: positiveId.optional(),
  title: z.string().min(1),
  body: z.string().default(""),
  read: z.boolean().default(false),
  createdAt: isoDateTime.optional(),
});

type NotificationFixture = z.output<typeof notificationSchema>;

function checkNotificationFixture(store: Store, account: FixtureAccount, fixture: NotificationFixture, index: number): void {
  const where = `notifications[${index}]`;
  if (fixture.userId !== undefined && !account.users.some((user) => user.id === fixture.userId)) {
    throw fixtureProblem(account, `${where}.userId`, `no user with id ${fixture.userId} in this account`);
  }
  if (fixture.id !== undefined && store.list(NOTIFICATIONS).some((row) => row.id === fixture.id)) {
    throw fixtureProblem(account, `${where}.id`, `duplicate notification id ${fixture.id}`);
  }
}

function seedNotifications(store: Store, account: FixtureAccount, notifications: NotificationFixture[]): void {
  seedRows(store, NOTIFICATIONS, notifications, (fixture, index, now) => {
    checkNotificationFixture(store, account, fixture, index);
    const { userId, createdAt, ...notification } = fixture;
    const created = createdAt === undefined ? now : isoTime(Date.parse(createdAt));
    return { ...notification, accountId: account.id, userId: userId ?? defaultUserId(account), createdAt: created };
  });
}

export const notificationFixtures = accountFixtures({
  field: "notifications",
  schema: z.array(notificationSchema).default([]),
  seed: seedNotifications,
});
