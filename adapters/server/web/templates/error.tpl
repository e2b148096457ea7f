{{%AUTOESCAPE context="HTML"}}<h1>{{ERROR_TITLE}}</h1>
<p id="error-text">{{ERROR_TEXT}}</p>
<p><a href="/">{{T_ERROR_BACK}}</a></p>
