{{%AUTOESCAPE context="HTML"}}<!doctype html>
<html lang="{{LANG}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{PAGE_TITLE}} · {{T_TITLE}}</title>
<link rel="stylesheet" href="/static/app.css?v={{ASSET_VERSION}}">
<script src="/static/app.js?v={{ASSET_VERSION}}" defer></script>
</head>
<body>
<a class="skip" href="#main">{{T_SKIP}}</a>
<header class="top">
<a class="brand" href="/">{{T_TITLE}}</a>
<nav aria-label="{{T_NAV}}">
<a href="/">{{T_NAV_CHECK}}</a>
{{#SIGNED_IN}}<a href="/reports">{{T_NAV_REPORTS}}</a>
<a href="/developer/tokens">{{T_NAV_TOKENS}}</a>
<form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="{{CSRF}}"><button type="submit" class="link" title="{{SIGNED_IN_AS}}">{{T_NAV_LOGOUT}}</button></form>{{/SIGNED_IN}}
{{#SIGNED_OUT}}<a href="/login">{{T_NAV_LOGIN}}</a>
<a href="/register">{{T_NAV_REGISTER}}</a>{{/SIGNED_OUT}}
<a href="{{LANG_SWITCH_URL}}" lang="{{T_LANG_OTHER}}" hreflang="{{T_LANG_OTHER}}" id="lang-switch">{{T_LANG_SWITCH}}</a>
</nav>
</header>
<main id="main">
{{BODY:none}}
</main>
<footer>
<p>{{T_FOOTER_ABOUT}}</p>
<p><a href="/docs/api">{{T_FOOTER_API}}</a></p>
</footer>
</body>
</html>
