// Accessibility on a desktop: the screens and dialogs of tests/e2e/accessibility.ts.
import { accessibilitySuite, VIEWPORTS } from './accessibility';

accessibilitySuite(VIEWPORTS.desktop);
