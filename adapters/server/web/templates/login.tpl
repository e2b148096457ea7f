{{%AUTOESCAPE context="HTML"}}<h1>{{T_LOGIN_TITLE}}</h1>
{{#ERROR}}<div class="notice warn" role="alert" id="form-error">{{ERROR_TEXT}}</div>{{/ERROR}}
<form method="post" action="/login" class="narrow">
<input type="hidden" name="csrf" value="{{CSRF}}">
<label for="email">{{T_LOGIN_EMAIL}}</label>
<input type="email" id="email" name="email" autocomplete="username" required value="{{EMAIL}}">
<label for="password">{{T_LOGIN_PASSWORD}}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">{{T_LOGIN_SUBMIT}}</button>
</form>
<p>{{T_LOGIN_NO_ACCOUNT}} <a href="/register">{{T_NAV_REGISTER}}</a></p>
