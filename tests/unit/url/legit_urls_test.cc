// Legitimate links people really get (German and international
// notifications, banks, parcel services, authorities, shops): the URL stage
// alone must not push any of them to "suspicious". Written by hand as
// fixtures; the corpora have next to no German legitimate text.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "data/data_source.h"
#include "url/url_analyzer.h"
#include "url/url_input.h"

using namespace scamcheck;
using namespace scamcheck::internal;

namespace {

// The default weights proposed for scoring.json (high 40, medium 20, low 8);
// a URL is flagged from a total of about 18 (score 30).
const std::map<std::string, double> kWeights = {
    {"brand_lookalike", 40},     {"brand_in_subdomain", 40},
    {"brand_in_path", 20},       {"punycode_domain", 20},
    {"ip_address_host", 40},     {"userinfo_trick", 40},
    {"url_shortener", 8},        {"risky_tld", 20},
    {"many_subdomains", 8},      {"nonstandard_port", 20},
    {"insecure_login_page", 20}, {"script_url", 40},
    {"free_hosting", 20},        {"phishing_keywords_in_url", 20},
    {"random_domain", 8},        {"obfuscated_url", 20},
    {"defanged_link", 8},        {"hijacked_site_path", 20},
    {"random_code_folder", 20},  {"domain_in_path", 20},
    {"hosting_server_name", 20}};

double total(const Findings& fs) {
  std::map<std::string, double> best;
  for (const Finding& f : fs) {
    double w = kWeights.at(f.key) * f.strength;
    best[f.key] = std::max(best[f.key], w);
  }
  double t = 0;
  for (const auto& [k, w] : best) t += w;
  return t;
}

const char* const kLegit[] = {
    "https://www.dhl.de/de/privatkunden/pakete-empfangen/"
    "verfolgen.html?piececode=00340434161094042557",
    "https://www.amazon.de/gp/your-account/order-details?orderID=302-1234567-1234567",
    "https://www.bahn.de/buchung/start",
    "https://www.kleinanzeigen.de/s-anzeige/fahrrad-28-zoll/2512345678-217-3331",
    "https://www.tagesschau.de/inland/innenpolitik/haushalt-100.html",
    "https://www.sparkasse.de/pk/ratgeber/sicherheit.html",
    "https://www.ing.de/banking/",
    "https://banking.dkb.de/login",
    "https://www.commerzbank.de/portal/de/privatkunden/",
    "https://meine.deutsche-bank.de/trxm/db/",
    "https://www.otto.de/p/damen-winterjacke-123456789/",
    "https://www.zalando.de/damen-home/",
    "https://www.paypal.com/de/signin",
    "https://www.check24.de/kfz-versicherung/",
    "https://www.idealo.de/preisvergleich/OffersOfProduct/201234567_-iphone-15-apple.html",
    "https://www.chefkoch.de/rezepte/123456789/Kaesespaetzle.html",
    "https://www.immobilienscout24.de/expose/151234567",
    "https://suchen.mobile.de/fahrzeuge/details.html?id=123456789",
    "https://web.de/magazine/",
    "https://www.gmx.net/mail/",
    "https://www.t-online.de/nachrichten/deutschland/",
    "https://www.spiegel.de/politik/deutschland/a-12345678.html",
    "https://www.heise.de/news/Sicherheitsupdate-fuer-Browser-9876543.html",
    "https://www.myhermes.de/empfangen/sendungsverfolgung/sendungsinformation/",
    "https://tracking.dpd.de/status/de_DE/parcel/01234567890123",
    "https://gls-group.eu/DE/de/paketverfolgung?match=12345678901",
    "https://www.lidl.de/c/angebote/s10008123",
    "https://www.elster.de/eportal/start",
    "https://www.arbeitsagentur.de/arbeitslos-arbeit-finden",
    "https://www.deutsche-rentenversicherung.de/DRV/DE/Home/home_node.html",
    "https://www.rundfunkbeitrag.de/buergerinnen_und_buerger/index_ger.html",
    "https://www.vodafone.de/meinvodafone/account/login",
    "https://www.telekom.de/kundencenter/startseite",
    "https://www.o2online.de/mein-o2/",
    "https://www.1und1.de/control-center",
    "https://www.sparkasse-koelnbonn.de/de/home.html",
    "https://www.volksbank-mittelhessen.de/privatkunden.html",
    "https://www.berliner-sparkasse.de/de/home/onlinebanking.html",
    "https://www.haspa.de/de/home.html",
    "https://www.postbank.de/privatkunden/",
    "https://www.n26.com/de-de",
    "https://kunde.comdirect.de/lp/wt/login",
    "https://www.consorsbank.de/ev/Konto-Karte",
    "https://www.targobank.de/de/service/login.html",
    "https://www.hypovereinsbank.de/hvb/privatkunden",
    "https://www.santander.de/privatkunden/",
    "https://www.chip.de/downloads/Firefox_12345678.html",
    "https://www.ebay.de/itm/123456789012",
    "https://www.apple.com/de/iphone/",
    "https://support.apple.com/de-de/HT201343",
    "https://www.microsoft.com/de-de/microsoft-365",
    "https://www.google.de/maps/place/Berlin",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://de.wikipedia.org/wiki/Phishing",
    "https://www.bundesregierung.de/breg-de/aktuelles",
    "https://www.bka.de/DE/UnsereAufgaben/Deliktsbereiche/Internetkriminalitaet/"
    "internetkriminalitaet_node.html",
    "https://www.polizei-beratung.de/themen-und-tipps/gefahren-im-internet/phishing/",
    "https://www.verbraucherzentrale.de/wissen/digitale-welt/phishingradar/"
    "phishingradar-aktuelle-warnungen-6059",
    "https://www.bsi.bund.de/DE/Themen/Verbraucherinnen-und-Verbraucher/Cyber-Sicherheitslage/"
    "Methoden-der-Cyber-Kriminalitaet/Spam-Phishing-Co/Passwortdiebstahl-durch-Phishing/"
    "passwortdiebstahl-durch-phishing_node.html",
    "https://www.tk.de/techniker/meine-tk",
    "https://www.aok.de/pk/",
    "https://www.adac.de/rund-ums-fahrzeug/",
    "https://www.lufthansa.com/de/de/homepage",
    "https://www.booking.com/hotel/de/adlon-kempinski.de.html",
    "https://www.airbnb.de/rooms/12345678",
    "https://www.sky.de/kundenservice",
    "https://www.dazn.com/de-DE/welcome",
    "https://www.netflix.com/de/login",
    "https://www.spotify.com/de/account/overview/",
    "https://www.disneyplus.com/de-de/login",
    "https://www.instagram.com/accounts/login/",
    "https://www.facebook.com/login/",
    "https://www.linkedin.com/login/de",
    "https://web.whatsapp.com/",
    "https://accounts.google.com/ServiceLogin",
    "https://login.live.com/",
    "https://outlook.office.com/mail/",
    "https://www.dropbox.com/login",
    "https://app.docusign.com/documents",
    "https://store.steampowered.com/login/",
    "https://www.binance.com/de/login",
    "https://www.coinbase.com/signin",
    "https://www.klarna.com/de/kundenservice/",
    "https://www.revolut.com/de-DE/",
    "https://wise.com/de/send-money/",
    "https://www.mastercard.de/de-de.html",
    "https://www.americanexpress.com/de-de/",
    "https://www.zoll.de/DE/Home/home_node.html",
    "https://www.bzst.de/DE/Home/home_node.html",
    "https://www.bundespolizei.de/Web/DE/Home/home_node.html",
    "https://www.deutschepost.de/de/s/sendungsverfolgung.html",
    "https://www.ups.com/track?loc=de_DE&tracknum=1Z999AA10123456784",
    "https://www.fedex.com/de-de/home.html",
    "https://de.aliexpress.com/item/1005001234567890.html",
    "https://www.etsy.com/de/listing/123456789/handgemachte-tasse",
    "https://www.mediamarkt.de/de/product/_apple-iphone-15-128-gb-schwarz-2900123.html",
    "https://www.payback.de/punkte-sammeln",
    "https://www.congstar.de/meincongstar/",
    "https://www.aldi-talk.de/",
    "https://www.gov.uk/log-in-register-hmrc-online-services",
    "https://www.irs.gov/payments",
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000",
    "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
    "https://www.chase.com/personal/online-banking",
    "https://www.wellsfargo.com/online-banking/",
    "https://www.rakuten.co.jp/",
    "https://www.smbc-card.com/mem/index.jsp",
    "https://www.au.com/mobile/",
    "https://www.docomo.ne.jp/mydocomo/",
    "https://www.eki-net.com/Personal/member/wb/Login/Login",
    "https://www.jcb.co.jp/",
    "https://zoom.us/j/1234567890?pwd=abcdef",
    "https://github.com/scamcheck/scamcheck/pull/12",
    "https://stackoverflow.com/questions/12345/how-to-parse-urls",
    "https://bit.ly/3xYzAbC",
    "https://amzn.to/3abcDEF",
    "https://t.me/durov",
    "https://wa.me/4915112345678",
    "https://münchen.de/rathaus",
    "https://www.bücher.de/",
    "https://www.müller.de/",
    "https://www.xn--bcher-kva.de/",
    "https://forms.office.com/r/abc123",
    "https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz/edit",
    "https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQr/view",
    "https://www.heise.de/",
    "http://www.kraftwerk.com/",
    "https://www.example.com/de/agb",
    // Small sites on WordPress, Joomla and Drupal, newsletters and tools:
    // system folders, hashes and other sites' names in paths that are fine.
    "https://www.smith-bakery.co.uk/wp-content/uploads/2023/05/menu.pdf",
    "https://www.smith-bakery.co.uk/wp-content/uploads/2023/05/cake-1024x768.jpg",
    "https://www.smith-bakery.co.uk/wp-admin/comment.php?action=approve&c=123",
    "https://www.smith-bakery.co.uk/wp-admin/post.php?post=45&action=edit",
    "https://www.smith-bakery.co.uk/wp-login.php?action=rp&key=abc123&login=jane",
    "https://www.smith-bakery.co.uk/wp-json/wp/v2/posts",
    "https://www.verein-example.de/index.php?option=com_content&view=article&id=12",
    "https://www.verein-example.de/administrator/index.php",
    "https://www.example.org/.well-known/security.txt",
    "https://www.example.org/sites/default/files/annual-report.pdf",
    "https://www.example.org/sites/example.org/files/page.html",
    "https://lists.example.org/cgi-bin/mailman/listinfo/users",
    "https://github.com/someone/example.com/issues/3",
    "https://web.archive.org/web/2020/www.example.com/page.html",
    "https://www-theguardian-com.cdn.ampproject.org/c/s/www.theguardian.com/world/2024/story",
    "http://url1234.smallshop.com/ls/click?upn=abcdef",
    "https://u1234567.ct.sendgrid.net/ls/click?upn=abcdef",
    "https://www.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50",
    "https://news.example.com/unsubscribe/5f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "https://shop-example.de/account/reset/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b/",
    "https://cdn.example.com/9f86d081884c7d659a2feaa0c55ad015/app.js",
    "https://dash.example-host.com/abc123/example.com/dns",
    "https://conference2024.example.org/program",
    "https://www.example.com/assets/docs/manual.html",
    "https://smith-accounting.co.uk/services/payroll",
    "https://allegro.pl/oferta/rower-miejski-28-123456789",
    "https://www.mercadolivre.com.br/ofertas",
    "https://simplilearn.com/",
};

}  // namespace

TEST_CASE("legitimate links stay below the suspicious line") {
  auto loaded = UrlAnalyzer::load(DataSource(SCAMCHECK_DATA_DIR));
  REQUIRE(loaded.ok());
  for (const char* url : kLegit) {
    std::string content = url;
    LinkMatch m = link_for_url_input(content);
    Findings fs;
    UrlInfo info;
    (*loaded)->analyze(content, m, fs, info);
    std::string keys;
    for (const Finding& f : fs) keys += f.key + " ";
    CHECK_MESSAGE(total(fs) < 17.8, url << " : " << keys);
  }
}
