/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.configure;

import java.awt.Component;

public class StringConfigurer extends Configurer {
  public StringConfigurer(String key, String name) {
    super(key);
    value = "";
  }

  @Override
  public String getValueString() {
    return (String) value;
  }

  @Override
  public void setValue(String s) {
    value = s;
  }

  @Override
  public Component getControls() {
    return null;
  }
}
