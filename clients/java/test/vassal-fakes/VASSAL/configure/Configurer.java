/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.configure;

import java.awt.Component;

public abstract class Configurer {
  protected final String key;
  protected Object value;

  protected Configurer(String key) {
    this.key = key;
  }

  public String getKey() {
    return key;
  }

  public Object getValue() {
    return value;
  }

  public abstract String getValueString();

  public abstract void setValue(String s);

  public abstract Component getControls();
}
