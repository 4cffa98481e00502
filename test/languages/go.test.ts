/** The go SDK on the real engine: see test/support/language-lifecycle.ts. */
import { describeLanguageLifecycle } from "../support/language-lifecycle";

describeLanguageLifecycle("go");
