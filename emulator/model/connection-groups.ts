import type { AccountFixture } from "../fixtures";
import type { Store } from "../store";

export function seedConnectionGroups(_store: Store, _account: AccountFixture): void {}
