/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.i18n;

import VASSAL.build.Buildable;

public interface Translatable extends Buildable {
  String getAttributeValueString(String key);

  void setAttribute(String key, Object value);
}
