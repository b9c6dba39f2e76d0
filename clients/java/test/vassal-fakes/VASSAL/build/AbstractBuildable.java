/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

public abstract class AbstractBuildable implements Buildable {
  @Override
  public void build(Element e) {
    for (int i = 0; i < e.getAttributes().getLength(); i++) setAttribute(e.getAttributes().item(i).getNodeName(), e.getAttributes().item(i).getNodeValue());
  }

  public abstract String[] getAttributeNames();

  public abstract void setAttribute(String key, Object value);

  public abstract String getAttributeValueString(String key);

  @Override
  public Element getBuildElement(Document doc) {
    throw new UnsupportedOperationException("fake");
  }

  @Override
  public void add(Buildable b) {
  }
}
